/**
 * A failed GraphQL request's answer, whatever failed (the request, its execution, an
 * administration error met on the way, or a bug): its response text, and its status under
 * `application/graphql-response+json`. The one mapping of errors to GraphQL replies.
 */
import { LimitExceeded, MethodNotAllowed, RequestError } from './request.js';
import { ExecutionError } from './execution.js';
import { log } from '../log.js';
import { ApiError } from './admin.js';
import type { GraphQLErrorBody } from './request.js';

const errorsBody = (errors: GraphQLErrorBody[]) => JSON.stringify({ errors });

export function toGraphQLReply(e: unknown): { body: string; status: number } {
  if (e instanceof MethodNotAllowed) return { body: errorsBody([e.body()]), status: 405 };
  if (e instanceof RequestError) return { body: errorsBody([e.body()]), status: e instanceof LimitExceeded ? e.status : 400 };
  if (e instanceof ExecutionError) return { body: JSON.stringify({ data: null, errors: [{ message: e.message, extensions: e.extensions ?? { path: e.error.path, code: e.error.code } }] }), status: 200 };
  if (e instanceof ApiError) return { body: errorsBody([{ message: e.message, extensions: { path: e.path, code: e.code } }]), status: e.status >= 400 ? e.status : 400 };
  log.error('graphql request failed', { error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  return { body: errorsBody([{ message: 'unexpected error while executing the request', extensions: { path: '$', code: 'unexpected' } }]), status: 500 };
}
