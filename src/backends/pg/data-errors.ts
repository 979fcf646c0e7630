/**
 * A database error met while reading or writing rows (the deprecated DML operations),
 * reported as the well-known engine does: chosen by SQLSTATE, never by message text
 * (messages are localised), with PostgreSQL's own message after a heading.
 */
import { ApiError } from '../../errors/admin.js';
import { isPgError, postgresError } from './run-sql.js';
import { CHECK_VIOLATION } from './check-violation.js';

const INTEGRITY: Record<string, [code: string, heading: string]> = {
  '23001': ['constraint-violation', 'Can not delete or update due to data being referred. '],
  '23502': ['constraint-violation', 'Not-NULL violation. '],
  '23503': ['constraint-violation', 'Foreign key violation. '],
  '23505': ['constraint-violation', 'Uniqueness violation. '],
  '23514': ['permission-error', 'Check constraint violation. '],
  '23P01': ['constraint-violation', 'Exclusion violation. '],
};

export function dataError(e: unknown, statement: string, path = '$'): ApiError {
  if (!isPgError(e) || !e.code) return postgresError(e, statement, path);
  const { code, message } = e;
  const integrity = INTEGRITY[code];
  if (integrity) return new ApiError(400, integrity[0], integrity[1] + message, path);
  if (code.startsWith('23')) return new ApiError(400, 'constraint-violation', message, path);
  if (code === '22025') return new ApiError(400, 'bad-request', message, path);
  if (code.startsWith('22')) return new ApiError(400, 'data-exception', message, path);
  if (code === '42P10') return new ApiError(400, 'constraint-error', 'there is no unique or exclusion constraint on target column(s)', path);
  if (code.startsWith('42')) return new ApiError(400, 'constraint-error', message, path);
  if (code === '40001') return new ApiError(400, 'concurrent-update', 'serialization failure due to concurrent update', path);
  return postgresError(e, statement, path);
}

/** A mutation's permission check failing inside its statement raises an error carrying CHECK_VIOLATION. */
export const isCheckViolation = (e: unknown): boolean => isPgError(e) && e.message.includes(CHECK_VIOLATION);
