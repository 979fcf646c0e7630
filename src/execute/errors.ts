import type { ApiError } from '../protocol/errors.js';

/** A database error while a query ran: answered with `"data": null`, as the well-known engine does. */
export class ExecutionError extends Error {
  constructor(readonly error: ApiError) {
    super(error.message);
  }
}
