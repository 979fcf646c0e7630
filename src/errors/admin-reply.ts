/**
 * A failure answered in the administration API's shape, `{path, error, code[, internal]}` with
 * its status (spec "Errors"): the metadata API's, and explain's and RESTified endpoints', which
 * answer in that shape too. The one mapping of errors to such replies; a bug is logged and
 * answered 500 `unexpected` without its details.
 */
import { log } from '../log.js';
import { ApiError } from './admin.js';
import { ExecutionError } from './execution.js';
import { LimitExceeded, RequestError } from './request.js';

export interface AdminReply {
  status: number;
  body: string;
}

export interface AdminReplyOptions {
  /** What failed, for the log and the 500's message: `metadata request`, `RESTified endpoint call`... */
  where: string;
  /** A database error of the caller's backends as an ApiError, or null when `e` is none. */
  databaseError?: (e: unknown) => ApiError | null;
  /** Whether `internal` (statements, database detail) is answered: on the admin-only APIs; not to a public endpoint's caller. */
  internal: boolean;
}

export function toAdminReply(e: unknown, { where, databaseError = () => null, internal }: AdminReplyOptions): AdminReply {
  const err = asApiError(e, databaseError);
  if (err) {
    const { internal: detail, ...body } = err.body();
    return { status: err.status >= 400 ? err.status : 400, body: JSON.stringify(internal && detail !== undefined ? { ...body, internal: detail } : body) };
  }
  log.error(`unexpected error in ${where}`, { error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  return { status: 500, body: JSON.stringify({ path: '$', error: `unexpected error in ${where}`, code: 'unexpected' }) };
}

function asApiError(e: unknown, databaseError: (e: unknown) => ApiError | null): ApiError | null {
  if (e instanceof ApiError) return e;
  if (e instanceof RequestError) return new ApiError(e instanceof LimitExceeded ? e.status : 400, e.code, e.message, e.path);
  if (e instanceof ExecutionError) return new ApiError(e.error.status, e.error.code, e.message, e.error.path, e.error.internal);
  return databaseError(e);
}
