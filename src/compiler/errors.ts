/** A request error as the well-known engine reports it: message, JSON path into the request, code. */
import type { GraphQLErrorBody } from '../protocol/plan.js';

export class RequestError extends Error {
  constructor(
    message: string,
    readonly path: string,
    readonly code = 'validation-failed',
  ) {
    super(message);
  }

  body(): GraphQLErrorBody {
    return { message: this.message, extensions: { path: this.path, code: this.code } };
  }
}
