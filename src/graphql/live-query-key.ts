/**
 * A subscription plan's multiplexed query, as the front thread names it for the multiplexer
 * actors: subscribers of plans with the same role and statements share it.
 */
import { RequestError } from '../errors/request.js';
import type { LiveQuery } from '../protocol/live.js';
import type { PlanStep } from '../protocol/plan.js';

/** The live query of a subscription plan's steps under `role` (`operationName`, `queryHash`: the first subscriber's, for metrics and query tags). */
export const liveQuery = (role: string, steps: PlanStep[], reads: readonly string[], operationName: string | null = null, queryHash: string | null = null): LiveQuery => ({
  key: `${role}\u0000${stepsKey(steps)}`,
  role,
  steps,
  reads,
  operationName,
  queryHash,
});

/** Keys by plan: a cached plan's subscribers (thousands, connecting at once) compute it once. */
const keys = new WeakMap<PlanStep[], string>();

/** The statements that identify a multiplexed query: requests differing only in lifted literals write the same. */
function stepsKey(steps: PlanStep[]): string {
  let key = keys.get(steps);
  if (key === undefined) keys.set(steps, (key = writeStepsKey(steps)));
  return key;
}

function writeStepsKey(steps: PlanStep[]): string {
  return JSON.stringify(
    steps.map(({ run, output }) => {
      if (run.kind === 'constant') return [run.json, output];
      if (run.kind !== 'sql') throw new RequestError('a subscription cannot run a mutation', '$', 'validation-failed');
      // Without a multiplexed statement each cohort runs `text` with these parameters (inlined literals included).
      return [run.source, run.multiplexed?.text ?? [run.text, run.params], output];
    }),
  );
}
