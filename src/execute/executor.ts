/**
 * Running a plan for one request, independent of HTTP and of threads: variables checked,
 * parameters bound, steps run in dependency order on the sources' connections, and the
 * database's JSON text spliced into `{"data": ...}` (parsed only where a join needs it).
 */
import { RequestError } from '../errors/request.js';
import type { Plan, PlanStep, RemoteRun } from '../protocol/plan.js';
import { runActionStep } from './action.js';
import { runRemoteJoin, runRemoteStep, type RemoteCallContext } from './remote.js';
import { bindParams, checkSession, checkVariables, type BindContext } from './bind.js';
import type { SourceConnections } from './connections.js';
import { statementFailure } from './database-errors.js';
import { ExecutionError } from '../errors/execution.js';
import { runGraph, type StepRunner } from './graph.js';
import { requestPath, type ResponsePath } from './join.js';
import { ApiError } from '../errors/admin.js';
import { runMutationOperation } from './mutations.js';
import { assembleData } from './response.js';
import { inStatementSpan } from './statement-span.js';
import type { Context } from '../observability/traces/tracer.js';
import { tagged } from './query-tags.js';
import { fieldName } from './field-name.js';
import { logs } from '../log.js';
import { writeQueryLog } from './query-log.js';
import { executionLogOn, inExecutionLog } from './execution-log.js';
import type { Deadline } from './deadlines.js';

export interface ExecuteRequest {
  variables: Record<string, unknown>;
  /** Session variables (lower-case names). */
  session: Record<string, string>;
  /** The client's headers (lower-case names): forwarded to remote schemas that ask for them. */
  headers?: Record<string, string>;
  /**
   * Gathers the `Set-Cookie` values of the remote schemas' and action handlers' answers, as the
   * well-known engine passes them on over HTTP; absent where there are no headers to send them
   * in (a WebSocket message, a subscription's result).
   */
  setCookies?: string[];
  /** The request's trace context, when traced: each statement and call is a span in it. */
  trace?: Context;
  /** The request's id (`x-request-id`) and operation name: its log lines and query tags carry them. */
  requestId?: string;
  operationName?: string | null;
  /** The role's time limit (`api_limits`, execute/deadlines.ts): when it passes the request fails and its statements are cancelled. */
  deadline?: Deadline;
}

/**
 * The response text. Throws `RequestError` (a bad request), `ExecutionError` (the
 * database refused a query) or `ApiError` (a mutation failed).
 */
export async function execute(plan: Plan, request: ExecuteRequest, connections: SourceConnections): Promise<string> {
  const errors: unknown[] = [];
  return responseText(await executeData(plan, request, connections, errors), errors);
}

/** A response of `data` text: a remote schema's errors come with the data, as the well-known engine passes them on. */
export const responseText = (data: string, errors: readonly unknown[]): string => (errors.length > 0 ? `{"data":${data},"errors":${JSON.stringify(errors)}}` : `{"data":${data}}`);

/** The text of `data` alone (a RESTified endpoint's body); throws as `execute` does. `errors` gathers remote schemas' errors. */
export function executeData(plan: Plan, request: ExecuteRequest, connections: SourceConnections, errors: unknown[] = []): Promise<string> {
  const deadline = request.deadline;
  return deadline === undefined ? runPlan(plan, request, connections, errors) : deadline.bound(runPlan(plan, request, connections, errors, deadline));
}

async function runPlan(plan: Plan, request: ExecuteRequest, connections: SourceConnections, errors: unknown[], deadline?: Deadline): Promise<string> {
  const variables = checkVariables(plan.variables, request.variables);
  checkSession(plan, request.session);
  // `joinKeys` present from the start: a join step's copy (`{ ...bind, joinKeys }`) then overwrites it, where adding a property to a spread's copy is a slow path in V8.
  const bind: BindContext = { variables, sessionJson: JSON.stringify(request.session), requestId: request.requestId, operationName: request.operationName, queryHash: plan.queryHash, joinKeys: undefined };
  if (deadline !== undefined) bind.deadline = deadline;
  // Made only when a remote schema or an action is called: most plans only run statements.
  let remoteContext: RemoteCallContext | undefined;
  const remote = (): RemoteCallContext =>
    (remoteContext ??= { variables, session: request.session, clientHeaders: request.headers ?? {}, errors, setCookies: request.setCookies ?? [], trace: request.trace, requestId: request.requestId });
  // A remote root field's failure at the field (a join's: below).
  const runRemote: RemoteRunner = (step, run, joinKeys, places) => {
    const server = connections.remote?.(run.remote);
    if (run.batch) return runRemoteJoin(run, joinKeys ?? '[]', server, remote(), places);
    return atField(plan.steps, step, runRemoteStep(run, step.output.kind === 'response' ? step.output.path.slice(0, -1) : [], server, remote()));
  };
  const runOther: StepRunner = (step, joinKeys, places) => {
    if (step.run.kind === 'action') return runActionStep(step.run, remote(), connections.actions);
    const running = runQueryStep(step, joinKeys === null ? bind : { ...bind, joinKeys }, connections, runRemote, places, request.trace);
    return step.output.kind === 'join' ? atField(plan.steps, step, running) : running;
  };
  const texts = plan.operation === 'mutation' ? await runMutationOperation(plan.steps, bind, connections, runRemote, runOther, request.trace) : await runGraph(plan.steps, runOther);
  return assembleData(plan.steps, texts);
}

/**
 * A remote field's or a join's failure placed at the field (its request path, as a compile
 * error's): one call or statement answers the field for every row, so it is the field, not a
 * row, that failed. A step at the root (`$`) keeps the error's own path.
 */
function atField(steps: PlanStep[], step: PlanStep, running: Promise<string>): Promise<string> {
  return running.catch((e: unknown) => {
    if (!(e instanceof ExecutionError)) throw e;
    const output = step.output;
    const above = output.kind === 'join' ? steps[output.join.parent]!.output : null;
    const keys = output.kind === 'response' ? output.path : above?.kind === 'response' ? [...above.path, ...output.join.at, output.join.field] : [];
    if (keys.length === 0) throw e;
    throw new ExecutionError(new ApiError(e.error.status, e.error.code, e.error.message, requestPath(keys)), e.extensions);
  });
}

type RemoteRunner = (step: PlanStep, run: RemoteRun, joinKeys?: string, places?: () => ResponsePath[][]) => Promise<string>;

async function runQueryStep(step: PlanStep, bind: BindContext, connections: SourceConnections, runRemote: RemoteRunner, places?: () => ResponsePath[][], trace?: Context): Promise<string> {
  const run = step.run;
  if (run.kind === 'constant') return run.json;
  if (run.kind === 'remote') return runRemote(step, run, bind.joinKeys, places);
  if (run.kind === 'mutation') throw new RequestError('mutation fields are only allowed in a mutation operation', '$', 'validation-failed');
  if (run.kind === 'action') throw new Error('an action step is run by runActionStep');
  const source = connections.get(run.source);
  if (!source) throw new RequestError(`source ${JSON.stringify(run.source)} is not available`, '$', 'unexpected');
  const params = bindParams(run.params, bind);
  const { text, statement } = tagged(source.queryTags, run, fieldName(step), bind);
  if (logs('query-log', 'info')) writeQueryLog(bind, fieldName(step), text, params);
  try {
    // Untraced and unlogged, the statement runs as it is: no closure, no extra promise on the hot path.
    if (!trace && !executionLogOn()) return await source.connection.json(text, params, statement, bind.deadline);
    const json = () => source.connection.json(text, params, statement, bind.deadline);
    const logged = executionLogOn() ? () => inExecutionLog(bind, run.source, source.backend.kind, json) : json;
    return await (trace ? inStatementSpan(trace, run.source, source.backend.kind, text, logged) : logged());
  } catch (e) {
    throw new ExecutionError(statementFailure(source.backend, e, run.text).error);
  }
}
