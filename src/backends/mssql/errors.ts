/** SQL Server errors (tedious' RequestError / ConnectionError) as the API reports them. */
import { ApiError } from '../../errors/admin.js';

interface TediousError extends Error {
  code?: string;
  number?: number;
}

export const isMssqlError = (e: unknown): e is TediousError => e instanceof Error && (e.name === 'RequestError' || e.name === 'ConnectionError');

/**
 * The server's errors of a request: tedious gives several as an AggregateError (a THROW under
 * XACT_ABORT inside a caller's transaction is followed by error 266, the transaction count
 * changed), the first being the cause.
 */
export function serverErrors(e: unknown): TediousError[] {
  if (e instanceof AggregateError) return e.errors.filter(isMssqlError);
  return isMssqlError(e) ? [e] : [];
}

/** Whether a request failed on the server (the connection stays usable), as opposed to the connection failing. */
export const isRequestFailure = (e: unknown): boolean => {
  const errors = serverErrors(e);
  return errors.length > 0 && errors.every((x) => x.name === 'RequestError');
};

/** A database error met by a statement: the well-known engine's `unexpected` with the database's message (500 for a connection lost). */
export function dataError(failure: unknown, statement: string, path = '$'): ApiError {
  if (failure instanceof ApiError) return failure;
  const e = serverErrors(failure)[0];
  if (e) {
    const internal = { statement, error: { message: e.message, number: e.number ?? null, code: e.code ?? null } };
    if (e.name === 'ConnectionError') return new ApiError(500, 'unexpected', `database connection error: ${e.message}`, path, internal);
    return new ApiError(400, 'unexpected', `database query error: ${e.message}`, path, internal);
  }
  return new ApiError(500, 'unexpected', failure instanceof Error ? failure.message : String(failure), path);
}

export function mssqlAdminError(e: TediousError): ApiError {
  return new ApiError(400, 'unexpected', `SQL Server error: ${e.message}`, '$');
}

/** The text of the error a mutation's failed permission check throws (translate/mutation.ts; `isCheckViolation` looks for it). */
export const CHECK_VIOLATION = 'service-permission-check-failed';

/** Whether `e` is a mutation's permission check failing inside its batch. */
export const isCheckViolation = (e: unknown): boolean => serverErrors(e).some((x) => x.message.includes(CHECK_VIOLATION));
