/**
 * The one place the executor reads a database error: which backend raised it is known
 * only here (PostgreSQL today).
 */
import { dataError } from '../backends/pg/data-errors.js';
import { isPgError } from '../backends/pg/run-sql.js';
import { CHECK_VIOLATION } from '../backends/pg/translate/mutation.js';
import type { ApiError } from '../protocol/errors.js';

export interface StatementFailure {
  /** The error as the request reports it (chosen by SQLSTATE). */
  error: ApiError;
  /** A mutation's permission check raised it (its statement makes the database fail on purpose). */
  checkViolation: boolean;
}

export function statementFailure(e: unknown, statement: string): StatementFailure {
  return { error: dataError(e, statement), checkViolation: isPgError(e) && e.message.includes(CHECK_VIOLATION) };
}
