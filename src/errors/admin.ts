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
    /** Reported at its own path whatever command it comes from (see `anchorAt`). */
    readonly atArgument = false,
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

/**
 * The object a command names by one of its arguments is not there (or already is): reported at
 * that argument, as the well-known engine wraps these lookups (`withPathK "table"`), where
 * other errors found after parsing are reported at the command's arguments (`anchorAt`).
 */
export const atArgument = (e: ApiError) => new ApiError(e.status, e.code, e.message, e.path, e.internal, true);

/** Whether `path` is `anchor` or inside it (`$.args.x`, `$.args[0]` for `$.args`). */
const inside = (path: string, anchor: string) => path.startsWith(anchor) && (path.length === anchor.length || path[anchor.length] === '.' || path[anchor.length] === '[');

/**
 * An error of a command, as the well-known engine reports it: what its checks find once the
 * arguments parsed (not found, already exists, listed twice, conflicts, validation against the
 * databases) is about the whole object, so it carries the path of the command's arguments
 * (`$.args`, `$.args[i].args` in a bulk, the document of a replace_metadata), not that of the
 * field involved; a parse failure keeps the path of the object whose decoder failed, and a lookup
 * of an object named by one argument keeps that argument's path (`atArgument`).
 */
export function anchorAt(e: unknown, anchor: string): unknown {
  if (!(e instanceof ApiError) || e.code === 'parse-failed' || e.atArgument || e.path === anchor || !inside(e.path, anchor)) return e;
  // Final: an enclosing command (a bulk) leaves it where it is.
  return new ApiError(e.status, e.code, e.message, anchor, e.internal, true);
}
