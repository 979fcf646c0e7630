/** BigQuery API errors (the client's ApiError, auth and network failures) as the API reports them. */
import { ApiError } from '../../errors/admin.js';

export function dataError(e: unknown, statement: string, path = '$'): ApiError {
  if (e instanceof ApiError) return e;
  const message = e instanceof Error ? e.message : String(e);
  return new ApiError(400, 'bigquery-error', `BigQuery error: ${message}`, path, { statement });
}
