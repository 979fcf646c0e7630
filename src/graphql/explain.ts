/**
 * `/v1/graphql/explain`: `{query: {query, operationName, variables}, user: {x-service-role, ...}}`.
 * Admin only: the caller has checked the admin secret; the query is planned as `user` says
 * and each SQL step explained by its source.
 */
import type { Session } from '../auth/session.js';
import { RequestError } from '../errors/request.js';
import { bindParams, checkVariables } from '../execute/bind.js';
import { bindCohort, cohortValues } from '../execute/cohort.js';
import type { CohortValues } from '../protocol/live.js';
import type { SourceConnections } from '../execute/connections.js';
import { statementFailure } from '../execute/database-errors.js';
import { toAdminReply } from '../errors/admin-reply.js';
import type { Plan } from '../protocol/plan.js';
import { isObject } from '../util/decode.js';
import type { PlanLookup } from './plan-lookup.js';
import { readRequest, type GraphQLRequest } from './request.js';

export async function explainRequest(body: Uint8Array, plans: PlanLookup, connections: SourceConnections): Promise<{ status: number; body: string }> {
  const fail = (status: number, path: string, error: string, code: string) => ({ status, body: JSON.stringify({ path, error, code }) });
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
  } catch {
    return fail(400, '$', 'the request body is not valid JSON', 'invalid-json');
  }
  if (!isObject(parsed)) return fail(400, '$', 'expected an object with "query"', 'parse-failed');
  const user = isObject(parsed.user) ? parsed.user : {};
  const variables: Record<string, string> = {};
  for (const [k, v] of Object.entries(user)) if (typeof v === 'string') variables[k.toLowerCase()] = v;
  const as: Session = { role: variables['x-service-role'] ?? 'admin', variables, isAdmin: true, useBackendOnlyPermissions: false };
  try {
    const req = readRequest(parsed.query, '$.query');
    const plan = await plans.plan(as, req);
    if (plan.operation === 'subscription') return { status: 200, body: JSON.stringify(await explainLiveQuery(plan, as, req, connections)) };
    return { status: 200, body: JSON.stringify(await explainSteps(plan, as, req, connections)) };
  } catch (e) {
    return toAdminReply(e, { where: 'explain request', internal: false });
  }
}

/** Each SQL step's text and its source's plan for it, with the request's parameters bound. */
function explainSteps(plan: Plan, session: Session, req: GraphQLRequest, connections: SourceConnections): Promise<{ field: string; sql: string; plan: string[] }[]> {
  const bind = { variables: checkVariables(plan.variables, req.variables), sessionJson: JSON.stringify(session.variables) };
  return Promise.all(
    plan.steps.flatMap((step) => {
      const run = step.run;
      if (run.kind !== 'sql') return [];
      const field = step.output.kind === 'response' ? step.output.path.join('.') : step.output.join.field;
      return [explainStatement(connections, run.source, run.text, bindParams(run.params, bind)).then((p) => ({ field, sql: run.text, plan: p }))];
    }),
  );
}

/**
 * A subscription: its (first) field's multiplexed statement, as it runs for a batch of this one
 * cohort, and the cohort's values (the session variables the statement reads only).
 */
async function explainLiveQuery(plan: Plan, session: Session, req: GraphQLRequest, connections: SourceConnections): Promise<{ sql: string; plan: string[]; variables: CohortValues }> {
  const values = cohortValues(plan, { variables: req.variables, session: session.variables });
  const i = plan.steps.findIndex((s) => s.run.kind === 'sql');
  const run = plan.steps[i]?.run;
  if (!run || run.kind !== 'sql') return { sql: '', plan: [], variables: { synthetic: [], query: req.variables, session: {} } };
  const step = values[i]!;
  const [text, params] = run.multiplexed ? [run.multiplexed.text, [[JSON.stringify(step)]]] : [run.text, bindCohort(run.params, step)];
  return { sql: text, plan: await explainStatement(connections, run.source, text, params), variables: step };
}

async function explainStatement(connections: SourceConnections, name: string, text: string, params: unknown[]): Promise<string[]> {
  const source = connections.get(name);
  if (!source) throw new RequestError(`source ${JSON.stringify(name)} is not available`, '$', 'unexpected');
  try {
    return await source.connection.explain(text, params);
  } catch (e) {
    // The database refusing the statement (a bad regular expression, say) is the request's fault, as when it runs.
    throw statementFailure(source.backend, e, text).error;
  }
}
