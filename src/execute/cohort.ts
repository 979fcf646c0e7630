/**
 * A live query's cohort values: what one subscriber's request gives a subscription plan's
 * statements, in the form a multiplexed statement reads them (`TranslatedLiveField` in
 * backends/backend.ts): `{query, session, synthetic}` per SQL step. Subscribers whose values
 * are equal share a cohort, so the values are normalised: the declared variables only
 * (checked, defaults applied, in declaration order), and only the session variables the plan
 * reads (all of them when a function gets the whole session), sorted. A streaming step's
 * values also hold its cursor, which starts at the request's `initial_value`.
 */
import type { Plan } from '../protocol/plan.js';
import type { ParamSource } from '../sql/fragment.js';
import { bindParams, checkSession, checkVariables } from './bind.js';
import type { ExecuteRequest } from './executor.js';
import type { CohortValues } from '../protocol/live.js';

/** Each step's values (null for a step without SQL). Throws `RequestError` for bad variables or a missing session variable. */
export function cohortValues(plan: Plan, request: ExecuteRequest): (CohortValues | null)[] {
  const checked = checkVariables(plan.variables, request.variables);
  checkSession(plan, request.session);
  // A variable left out and one given as null bind alike (bindParams): both are null here.
  const query = Object.fromEntries(plan.variables.map((v) => [v.name, checked[v.name] ?? null]));
  const names = plan.wholeSession ? Object.keys(request.session) : plan.sessionVariables;
  const session = Object.fromEntries([...names].sort().map((n) => [n, request.session[n]!]));
  return plan.steps.map((step) => {
    if (step.run.kind !== 'sql') return null;
    const values: CohortValues = { query, session, synthetic: syntheticValues(step.run.params) };
    if (step.run.stream) values.cursor = bindParams([step.run.stream.initial], { variables: query, sessionJson: '{}' })[0] as string | null;
    return values;
  });
}

const syntheticValues = (params: ParamSource[]): string[] => params.flatMap((p) => (p.kind === 'literal' ? [p.value as string] : []));

/** A step's parameters for one cohort, for a backend that runs each cohort's statement on its own. */
export function bindCohort(params: ParamSource[], values: CohortValues): unknown[] {
  return bindParams(params, { variables: values.query, sessionJson: JSON.stringify(values.session), cursor: values.cursor ?? null });
}

/**
 * A stream planned again (a metadata change) goes on from where it was: each streaming step
 * of the new values takes the cursor the old cohort had reached (one root field per
 * subscription, so steps match by position).
 */
export function keepCursors(values: (CohortValues | null)[], before: (CohortValues | null)[] | null): (CohortValues | null)[] {
  if (!before) return values;
  return values.map((v, i) => {
    const cursor = before[i]?.cursor;
    return v && v.cursor !== undefined && cursor !== undefined ? { ...v, cursor } : v;
  });
}
