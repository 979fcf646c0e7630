import type { ApiError } from './admin.js';

/** A database error while a query ran: answered with `"data": null`, as the well-known engine does. */
export class ExecutionError extends Error {
  /** `extensions`: the error's own (an action handler's), instead of `{path, code}`. */
  constructor(
    readonly error: ApiError,
    readonly extensions?: Record<string, unknown>,
  ) {
    super(error.message);
  }
}
