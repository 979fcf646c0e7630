/**
 * `execution-log` lines: one per database statement a request runs, written when it ends, with the
 * request's id, the source and its backend, how long the statement took (the wait for a
 * connection included) and whether it failed: what an operator needs to find slow statements,
 * which `query-log` (the SQL and its values, written before it runs) does not tell. Off by
 * default (`SERVICE_GRAPHQL_ENABLED_LOG_TYPES`); off, a statement runs with no wrapper at all.
 */
import { logs, writeLog } from '../log.js';
import type { RunStatement } from '../backends/faces/runtime.js';
import type { TagContext } from './query-tags.js';

/** Whether statements are logged now (checked per request, so a change of setting applies to the next one). */
export const executionLogOn = (): boolean => logs('execution-log', 'info');

export async function inExecutionLog<T>(ctx: TagContext, source: string, backend: string, statement: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const line = (error: unknown) =>
    writeLog('execution-log', error === undefined ? 'info' : 'error', {
      request_id: ctx.requestId ?? null,
      operation_name: ctx.operationName ?? null,
      source,
      backend,
      time_ms: Math.round((performance.now() - started) * 1000) / 1000,
      ...(error === undefined ? {} : { error: error instanceof Error ? error.message : String(error) }),
    });
  try {
    const out = await statement();
    line(undefined);
    return out;
  } catch (e) {
    line(e);
    throw e;
  }
}

/** `run` with each statement logged (as is when the log is off). */
export const loggedStatements = (run: RunStatement, ctx: TagContext, source: string, backend: string): RunStatement =>
  executionLogOn() ? (text, values, name) => inExecutionLog(ctx, source, backend, () => run(text, values, name)) : run;
