/**
 * Running a mutation operation: every field in order, in one transaction of its
 * source. A failed permission check or database error rolls everything back.
 */
import type { Backend, RunStatement, SourceConnection } from '../backends/backend.js';
import { RequestError } from '../compiler/errors.js';
import type { PlanStep } from '../protocol/plan.js';
import { ApiError } from '../protocol/errors.js';
import { bindParams, type MutationRows } from './bind.js';

type MutationStep = Extract<PlanStep, { kind: 'mutation' }>;

const checkFailed = (step: MutationStep) => new ApiError(400, 'permission-error', `Check constraint violation. ${step.check} check constraint failed`, '$');

export async function runMutations(runner: SourceConnection, backend: Backend, steps: PlanStep[], variables: Record<string, unknown>, sessionJson: string): Promise<string[]> {
  // One field of one statement is atomic by itself (its check fails inside it): no BEGIN/COMMIT round trips.
  const fields = steps.filter((s): s is MutationStep => s.kind === 'mutation');
  if (fields.length === 1 && fields[0]!.ops.length === 1) {
    const only = fields[0]!;
    const text = await runField((text, values, statement) => runner.rows(text, values, statement), backend, only, variables, sessionJson);
    return steps.map((s) => (s.kind === 'static' ? s.json : text));
  }
  return runner.transaction(async (run) => {
    const texts: string[] = [];
    for (const step of steps) {
      if (step.kind === 'static') texts.push(step.json);
      else if (step.kind === 'mutation') texts.push(await runField(run, backend, step, variables, sessionJson));
      else throw new RequestError('queries and mutations cannot be mixed in one operation', '$', 'validation-failed');
    }
    return texts;
  });
}

async function runField(
  run: RunStatement,
  backend: Backend,
  step: MutationStep,
  variables: Record<string, unknown>,
  sessionJson: string,
): Promise<string> {
  const earlier: MutationRows = { rows: [], affected: 0 };
  const roots: string[] = [];
  for (const op of step.ops) {
    let rows: Record<string, string | null>[];
    try {
      rows = await run(op.text, bindParams(op.params, variables, sessionJson, earlier), op.statement);
    } catch (e) {
      if (backend.isCheckViolation(e)) throw checkFailed(step);
      const err = backend.dataError(e, op.text);
      throw new ApiError(err.status, err.code, err.message, `${step.path}.args`);
    }
    if (rows.some((r) => r.__check === 'f' || r.__check === 'false')) throw checkFailed(step);
    earlier.rows.push(rows);
    if (op.final) roots.push(rows[0]?.root ?? 'null');
    else earlier.affected += rows.length;
  }
  return step.list ? `[${roots.join(',')}]` : roots[0]!;
}
