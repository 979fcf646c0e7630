/**
 * Running a mutation operation: every field in order (each depends on the one before),
 * in one transaction of its source. A failed permission check or database error rolls
 * everything back.
 */
import { RequestError } from '../errors/request.js';
import type { PlanStep, RemoteRun, StepRun } from '../protocol/plan.js';
import { ApiError } from '../errors/admin.js';
import { bindParams, type BindContext, type MutationRows } from './bind.js';
import type { RunStatement } from '../backends/faces/runtime.js';
import type { ConnectedSource, SourceConnections } from './connections.js';
import { tagged } from './query-tags.js';
import { fieldName } from './field-name.js';
import { statementFailure } from './database-errors.js';
import { runGraph, type StepRunner } from './graph.js';
import { eventTraceContext } from '../observability/traces/propagation.js';
import { tracedStatements } from './statement-span.js';
import { loggedStatements } from './execution-log.js';
import type { Context } from '../observability/traces/tracer.js';

type MutationRun = Extract<StepRun, { kind: 'mutation' }>;

const checkFailed = (field: MutationRun) => new ApiError(400, 'permission-error', `Check constraint violation. ${field.check} check constraint failed`, '$');

/**
 * `runRemote`: a remote schema's mutation field, run in its turn (outside the transaction: the
 * remote has its own). `runOther`: an action's field, in its turn (its handler is called while
 * the transaction is open, as a remote field is), and the joins selected in the fields'
 * answers (remote relationships, an action's output relationships), run once the transaction
 * committed (they read the rows as everyone sees them, and no remote call holds the
 * transaction open), one per relationship as in a query.
 */
export async function runMutationOperation(
  steps: PlanStep[],
  bind: BindContext,
  connections: SourceConnections,
  runRemote: (step: PlanStep, run: RemoteRun) => Promise<string>,
  runOther: StepRunner,
  trace?: Context,
): Promise<string[]> {
  const fields = steps.filter((s) => s.output.kind !== 'join');
  const sources = new Set(fields.flatMap((s) => (s.run.kind === 'mutation' ? [s.run.source] : [])));
  if (sources.size > 1) throw new RequestError('all mutation fields of a request must be on the same source', '$', 'not-supported');
  const [source] = sources;
  const connected = source === undefined ? undefined : connections.get(source);
  if (source !== undefined && !connected) throw new RequestError(`source ${JSON.stringify(source)} is not available`, '$', 'unexpected');
  const texts = new Map<number, string>();
  // Every field in order: each depends on the one before.
  const inOrder = async (untraced: RunStatement | null) => {
    const run = untraced && tracedStatements(loggedStatements(untraced, bind, source!, connected!.backend.kind), trace, source!, connected!.backend.kind);
    for (const step of fields) texts.set(step.id, await runFieldStep(step, run, connected, bind, runRemote, runOther));
  };
  if (!connected) await inOrder(null);
  else {
    const { connection, capturesEvents } = connected;
    // One field of one statement is atomic by itself (its check fails inside it): no BEGIN/COMMIT
    // round trips, unless the source's event triggers record the session variables (spec "Events"
    // 1), which the transaction sets.
    const mutations = fields.filter((s) => s.run.kind === 'mutation');
    const { deadline } = bind;
    if (!capturesEvents && mutations.length === 1 && (mutations[0]!.run as MutationRun).ops.length === 1) await inOrder((text, values, statement) => connection.rows(text, values, statement, deadline));
    else if (capturesEvents) {
      // A traced mutation's events carry its trace on (their deliveries join it).
      const traced = eventTraceContext(trace);
      await connection.transaction(inOrder, bind.sessionJson, traced && JSON.stringify(traced), deadline);
    }
    else await connection.transaction(inOrder, undefined, undefined, deadline);
  }
  if (fields.length === steps.length) return steps.map((s) => texts.get(s.id)!);
  return runGraph(steps, async (step, joinKeys, places) => (joinKeys === null ? texts.get(step.id)! : runOther(step, joinKeys, places)));
}

async function runFieldStep(
  step: PlanStep,
  run: RunStatement | null,
  connected: ConnectedSource | undefined,
  bind: BindContext,
  runRemote: (step: PlanStep, run: RemoteRun) => Promise<string>,
  runOther: StepRunner,
): Promise<string> {
  if (step.run.kind === 'constant') return step.run.json;
  if (step.run.kind === 'remote') return runRemote(step, step.run);
  if (step.run.kind === 'action') return runOther(step, null);
  if (step.run.kind === 'mutation' && run && connected) return runField(run, connected, step.run, bind, fieldName(step));
  throw new RequestError('queries and mutations cannot be mixed in one operation', '$', 'validation-failed');
}

async function runField(run: RunStatement, { backend, queryTags }: ConnectedSource, field: MutationRun, bind: BindContext, name: string): Promise<string> {
  const earlier: MutationRows = { rows: [], affected: 0 };
  const ctx: BindContext = { ...bind, earlier };
  const roots: string[] = [];
  for (const op of field.ops) {
    let rows: Record<string, string | null>[];
    try {
      const { text, statement } = tagged(queryTags, op, name, bind);
      rows = await run(text, bindParams(op.params, ctx), statement);
    } catch (e) {
      const failure = statementFailure(backend, e, op.text);
      if (failure.checkViolation) throw checkFailed(field);
      throw new ApiError(failure.error.status, failure.error.code, failure.error.message, `${field.errorPath}.args`);
    }
    if (rows.some((r) => r.__check === 'f' || r.__check === 'false')) throw checkFailed(field);
    earlier.rows.push(rows);
    if (op.final) roots.push(rows[0]?.root ?? 'null');
    else earlier.affected += rows.length;
  }
  return field.list ? `[${roots.join(',')}]` : roots[0]!;
}
