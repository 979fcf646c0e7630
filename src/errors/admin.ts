/**
 * The wire shape of every administration-API failure: `{path, error, code}` with a
 * 4xx status for the caller's mistakes (spec "Errors"), plus `internal` where the
 * well-known engine adds detail (inconsistent objects, postgres errors).
 */
export interface ApiErrorBody {
  path: string;
  error: string;
  code: string;
  internal?: unknown;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly path = '$',
    readonly internal?: unknown,
  ) {
    super(message);
  }

  body(): ApiErrorBody {
    const b: ApiErrorBody = { path: this.path, error: this.message, code: this.code };
    if (this.internal !== undefined) b.internal = this.internal;
    return b;
  }
}

export const badRequest = (code: string, message: string, path = '$', internal?: unknown) =>
  new ApiError(400, code, message, path, internal);

export const parseFailed = (message: string, path: string) => new ApiError(400, 'parse-failed', message, path);
export const notExists = (message: string, path = '$.args') => new ApiError(400, 'not-exists', message, path);
export const alreadyExists = (message: string, path = '$.args') => new ApiError(400, 'already-exists', message, path);
export const conflict = (message: string) => new ApiError(409, 'conflict', message, '$');
/** A role other than admin asking the administration API for what only admin may do (the well-known engine's words). */
export const adminOnly = () => new ApiError(400, 'access-denied', 'restricted access : admin only', '$.args');
