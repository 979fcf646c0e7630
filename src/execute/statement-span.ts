/**
 * A database statement's client span (OpenTelemetry's database conventions: named by and
 * carrying `db.system`, with the source's name). Its SQL text goes with it only when
 * `SERVICE_GRAPHQL_ENABLE_QUERY_TRACING` says so, and never the values bound to it: they are
 * the request's data and session variables.
 */
import { endSpan, SpanKind, traces, type Context } from '../observability/traces/tracer.js';
import type { RunStatement } from '../backends/faces/runtime.js';

/** OpenTelemetry's names of the systems whose backend name differs. */
const DB_SYSTEM: Record<string, string> = { postgres: 'postgresql' };

/** Runs `statement` in its span (when `trace`: the request is traced). */
export async function inStatementSpan<T>(trace: Context | undefined, source: string, backend: string, text: string, statement: () => Promise<T>): Promise<T> {
  if (!trace) return statement();
  const system = DB_SYSTEM[backend] ?? backend;
  const span = traces.start(system, trace, SpanKind.CLIENT, { 'db.system': system, source, ...(traces.statements ? { 'db.statement': text } : {}) });
  try {
    const out = await statement();
    endSpan(span);
    return out;
  } catch (e) {
    endSpan(span, e);
    throw e;
  }
}

/** `run` with each statement in its span (as is when the request is not traced). */
export const tracedStatements = (run: RunStatement, trace: Context | undefined, source: string, backend: string): RunStatement =>
  trace ? (text, values, name) => inStatementSpan(trace, source, backend, text, () => run(text, values, name)) : run;
