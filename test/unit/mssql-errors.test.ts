/** SQL Server request errors as tedious reports them (one, or several as an AggregateError) read by the mssql backend. */
import { describe, expect, it } from 'vitest';
import { runtime as mssql } from '../../src/backends/mssql/faces/runtime.js';
import { isRequestFailure } from '../../src/backends/mssql/errors.js';

const requestError = (message: string, number: number) => Object.assign(new Error(message), { name: 'RequestError', number, code: 'EREQUEST' });
const connectionError = (message: string) => Object.assign(new Error(message), { name: 'ConnectionError', code: 'ESOCKET' });

describe('mssql errors', () => {
  const thrown = requestError('service-permission-check-failed', 50000);
  // A THROW under XACT_ABORT inside the request's transaction: SQL Server adds error 266.
  const withCount = new AggregateError([thrown, requestError('Transaction count after EXECUTE indicates a mismatching number of BEGIN and COMMIT statements.', 266)]);

  it("sees a mutation's failed permission check, alone or followed by error 266", () => {
    expect(mssql.isCheckViolation(thrown)).toBe(true);
    expect(mssql.isCheckViolation(withCount)).toBe(true);
    expect(mssql.isCheckViolation(requestError("Cannot insert the value NULL into column 'title'", 515))).toBe(false);
  });

  it('reports the first server error, a lost connection as a 500', () => {
    expect(mssql.dataError(withCount, 'stmt').message).toBe('database query error: service-permission-check-failed');
    expect(mssql.dataError(withCount, 'stmt').status).toBe(400);
    expect(mssql.dataError(connectionError('Connection lost'), 'stmt').status).toBe(500);
  });

  it('keeps a connection whose request failed, drops one that failed itself', () => {
    expect(isRequestFailure(withCount)).toBe(true);
    expect(isRequestFailure(connectionError('gone'))).toBe(false);
    expect(isRequestFailure(new Error('other'))).toBe(false);
  });
});
