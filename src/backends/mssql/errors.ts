/** SQL Server errors (tedious' RequestError / ConnectionError) as the API reports them. */
import { ApiError } from '../../protocol/errors.js';

interface TediousError extends Error {
  code?: string;
  number?: number;
}

export const isMssqlError = (e: unknown): e is TediousError => e instanceof Error && (e.name === 'RequestError' || e.name === 'ConnectionError');

/** A database error met by a statement: the well-known engine's `unexpected` with the database's message (500 for a connection lost). */
export function dataError(e: unknown, statement: string, path = '$'): ApiError {
  if (e instanceof ApiError) return e;
  if (isMssqlError(e)) {
    const internal = { statement, error: { message: e.message, number: e.number ?? null, code: e.code ?? null } };
    if (e.name === 'ConnectionError') return new ApiError(500, 'unexpected', `database connection error: ${e.message}`, path, internal);
    return new ApiError(400, 'unexpected', `database query error: ${e.message}`, path, internal);
  }
  return new ApiError(500, 'unexpected', e instanceof Error ? e.message : String(e), path);
}

export function mssqlAdminError(e: TediousError): ApiError {
  return new ApiError(400, 'unexpected', `SQL Server error: ${e.message}`, '$');
}
