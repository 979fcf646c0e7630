/**
 * The `operation` of a GraphQL request's `http-log` line, as the well-known engine writes it: the
 * session variables, the first error (when the answer is one), and the request itself only when it
 * failed. Built only when the log is on: the answer's text is parsed only when it is an error.
 */
import { logs } from '../../log.js';
import { httpLogOn, type OperationInfo } from './http-log.js';

const ERRORS_PREFIX = '{"errors":';

function requestOf(body: Uint8Array | null): unknown {
  if (body === null) return null;
  try {
    return JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
  } catch {
    return null;
  }
}

/** The first error of an answer that is one (`{"errors": [...]}`), else null. */
export const firstError = (answer: string): unknown => (answer.startsWith(ERRORS_PREFIX) ? ((JSON.parse(answer) as { errors: unknown[] }).errors[0] ?? null) : null);

/** `answer`: the response's text; `userVars` null when authentication failed; undefined when the log is off. */
export function graphqlOperation(answer: string, userVars: Record<string, string> | null, body: Uint8Array | null, queryHash?: string): OperationInfo | undefined {
  if (!httpLogOn()) return undefined;
  const error = firstError(answer);
  // A successful request's line is written at level info only (`httpLogLevel`): below it, nothing to build.
  if (error === null && !logs('http-log', 'info')) return undefined;
  return { user_vars: userVars, error, query: error === null ? null : requestOf(body), ...(queryHash && error === null ? { parameterized_query_hash: queryHash } : {}) };
}
