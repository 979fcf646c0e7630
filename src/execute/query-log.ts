/**
 * `query-log` lines (the well-known engine's): the SQL a request's field runs and its bound values,
 * with the request's id and operation name. One line per statement run.
 */
import { writeLog } from '../log.js';
import type { TagContext } from './query-tags.js';

export function writeQueryLog(ctx: TagContext, field: string, query: string, preparedArguments: unknown[]): void {
  writeLog('query-log', 'info', {
    kind: 'database',
    request_id: ctx.requestId ?? null,
    query: { operationName: ctx.operationName ?? null },
    generated_sql: { [field]: { query, prepared_arguments: preparedArguments } },
  });
}
