/** The one place the executor reads a database error: through the backend of the source that raised it. */
import type { Runtime } from '../backends/faces/runtime.js';
import type { ApiError } from '../errors/admin.js';

export interface StatementFailure {
  /** The error as the request reports it. */
  error: ApiError;
  /** A mutation's permission check raised it (its statement makes the database fail on purpose). */
  checkViolation: boolean;
}

export function statementFailure(backend: Runtime, e: unknown, statement: string): StatementFailure {
  return { error: backend.dataError(e, statement), checkViolation: backend.isCheckViolation(e) };
}
