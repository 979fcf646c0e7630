/**
 * Running a mutation operation: every field in order (each depends on the one before),
 * in one transaction of its source. A failed permission check or database error rolls
 * everything back.
 */
import { RequestError } from '../compiler/errors.js';
import type { PlanStep, RemoteRun, StepRun } from '../protocol/plan.js';
import { ApiError } from '../protocol/errors.js';
import { bindParams, type BindContext, type MutationRows } from './bind.js';
import type { Backend, RunStatement } from '../backends/backend.js';
import type { SourceConnections } from './connections.js';
import { statementFailure } from './database-errors.js';
import { runGraph, type StepRunner } from './graph.js';

type MutationRun = Extract<StepRun, { kind: 'mutation' }>;

const checkFailed = (field: MutationRun) => new ApiError(400, 'permission-error', `Check constraint violation. ${field.check} check constraint failed`, '$');

/**
 * `runRemote`: a remote schema's mutation field, run in its turn (outside the transaction: the
 * remote has its own); `runOther`: an action's field and the joins after it (their rows read
 * outside the transaction, after the call).
 */
export async function runMutationOperation(
  steps: PlanStep[],
  bind: BindContext,
  connections: SourceConnections,
  runRemote: (step: PlanStep, run: RemoteRun) => Promise<string>,
  runOther: StepRunner,
): Promise<string[]> {
  const sources = new Set(steps.flatMap((s) => (s.run.kind === 'mutation' ? [s.run.source] : [])));
  if (sources.size > 1) throw new RequestError('all mutation fields of a request must be on the same source', '$', 'not-supported');
  const [source] = sources;
  const connected = source === undefined ? undefined : connections.get(source);
  if (source !== undefined && !connected) throw new RequestError(`source ${JSON.stringify(source)} is not available`, '$', 'unexpected');
  if (!connected) return runGraph(steps, async (step, joinKeys) => (step.run.kind === 'constant' ? step.run.json : step.run.kind === 'remote' ? runRemote(step, step.run) : runOther(step, joinKeys)));
  const { connection, backend, capturesEvents } = connected;
  const inOrder = (run: RunStatement) =>
    runGraph(steps, async (step, joinKeys) => {
      if (step.run.kind === 'constant') return step.run.json;
      if (step.run.kind === 'mutation') return runField(run, backend, step.run, bind);
      if (step.run.kind === 'remote') return runRemote(step, step.run);
      if (step.run.kind === 'action' || step.output.kind === 'join') return runOther(step, joinKeys);
      throw new RequestError('queries and mutations cannot be mixed in one operation', '$', 'validation-failed');
    });
  // One field of one statement is atomic by itself (its check fails inside it): no BEGIN/COMMIT
  // round trips, unless the source's event triggers record the session variables (spec "Events"
  // 1), which the transaction sets.
  const fields = steps.filter((s) => s.run.kind === 'mutation');
  if (!capturesEvents && fields.length === 1 && (fields[0]!.run as MutationRun).ops.length === 1) return inOrder((text, values, statement) => connection.rows(text, values, statement));
  return capturesEvents ? connection.transaction(inOrder, bind.sessionJson) : connection.transaction(inOrder);
}

async function runField(run: RunStatement, backend: Backend, field: MutationRun, bind: BindContext): Promise<string> {
  const earlier: MutationRows = { rows: [], affected: 0 };
  const ctx: BindContext = { ...bind, earlier };
  const roots: string[] = [];
  for (const op of field.ops) {
    let rows: Record<string, string | null>[];
    try {
      rows = await run(op.text, bindParams(op.params, ctx), op.statement);
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
