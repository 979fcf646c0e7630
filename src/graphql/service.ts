/**
 * `/v1/graphql` on the front thread. A plan-cache hit binds parameters and runs the
 * prepared statements here, with no thread hop; a miss asks the compiler pool. The
 * JSON text PostgreSQL builds is spliced into the response without being parsed.
 */
import type { Session } from '../auth/session.js';
import type { Backend, SourceConnection } from '../backends/backend.js';
import { backendFor } from '../backends/registry.js';
import { RequestError } from '../compiler/errors.js';
import type { CompilerPool } from '../actors/compiler/pool.js';
import type { GraphQLErrorBody, Plan, PlanStep } from '../protocol/plan.js';
import type { PublishedSnapshot } from '../protocol/snapshot.js';
import { ApiError } from '../protocol/errors.js';
import { isObject } from '../util/decode.js';
import { readRequest, readRequestBody, type GraphQLRequest } from './request.js';
import { log } from '../log.js';
import { bindParams, checkSession, checkVariables } from './bind.js';
import { PlanCache } from './plan-cache.js';
import { runMutations } from './mutations.js';

const errorsBody = (errors: GraphQLErrorBody[]) => JSON.stringify({ errors });

/** A database error while a query ran: answered with `"data": null`, as the well-known engine does. */
class ExecutionError extends Error {
  constructor(readonly error: ApiError) {
    super(error.message);
  }
}

/** A mutation or subscription over GET (GraphQL over HTTP: GET is for queries only). */
class MethodNotAllowed extends RequestError {}

/** The answer to an HTTP request. */
export interface GraphQLReply {
  body: string;
  /** The status under `application/graphql-response+json`: 200 when the body has `data`, else 4xx/5xx. */
  status: number;
  /** A malformed request or a method the operation does not allow: `status` under `application/json` too. */
  protocolError: boolean;
}

export class GraphQLService {
  private snapshot: PublishedSnapshot | null = null;
  private readonly runners = new Map<string, { key: string; backend: Backend; runner: SourceConnection }>();
  private readonly cache: PlanCache;

  constructor(
    private readonly compiler: CompilerPool,
    cacheSize = 10_000,
  ) {
    this.cache = new PlanCache(cacheSize);
  }

  /** A new snapshot: plans that read what it changed go; source pools follow the configuration. */
  setSnapshot(s: PublishedSnapshot): void {
    this.snapshot = s;
    this.cache.evict(s.changes);
    const wanted = new Set<string>();
    for (const src of s.connected) {
      wanted.add(src.name);
      const key = JSON.stringify(src.configuration);
      if (this.runners.get(src.name)?.key === key) continue;
      void this.runners.get(src.name)?.runner.close().catch(() => {});
      try {
        const backend = backendFor(src.kind);
        if (!backend) throw new Error(`backend kind "${src.kind}" is not supported`);
        this.runners.set(src.name, { key, backend, runner: backend.connect(src.configuration) });
      } catch (e) {
        log.warn('cannot connect to source for queries', { source: src.name, error: e instanceof Error ? e.message : String(e) });
      }
    }
    for (const [name, r] of this.runners) {
      if (!wanted.has(name)) {
        void r.runner.close().catch(() => {});
        this.runners.delete(name);
      }
    }
  }

  /** A POST body: one request or a batch. */
  async post(session: Session, body: Uint8Array): Promise<GraphQLReply> {
    let requests: GraphQLRequest | GraphQLRequest[];
    try {
      requests = readRequestBody(body);
    } catch (e) {
      return { ...failure(e), protocolError: true };
    }
    if (!Array.isArray(requests)) return this.answer(session, requests, false);
    const answers = await Promise.all(requests.map((r) => this.answer(session, r, false)));
    return { body: `[${answers.map((a) => a.body).join(',')}]`, status: 200, protocolError: false };
  }

  /** A GET request: queries only. */
  get(session: Session, request: GraphQLRequest): Promise<GraphQLReply> {
    return this.answer(session, request, true);
  }

  /** One request's response text (errors included): the unit of WebSocket operations and live-query polls. */
  async single(session: Session, raw: unknown, path: string): Promise<string> {
    try {
      return (await this.answer(session, readRequest(raw, path), false)).body;
    } catch (e) {
      return failure(e).body;
    }
  }

  private async answer(session: Session, req: GraphQLRequest, queriesOnly: boolean): Promise<GraphQLReply> {
    try {
      const plan = await this.plan(session, req);
      if (queriesOnly && plan.operation !== 'query') throw new MethodNotAllowed(`GET requests may only run queries, not a ${plan.operation}`, '$', 'method-not-allowed');
      return { body: await this.run(plan, session, req), status: 200, protocolError: false };
    } catch (e) {
      return { ...failure(e), protocolError: e instanceof MethodNotAllowed };
    }
  }

  /** The operation kind of a request, when it compiles (a WebSocket `start` needs it before running). */
  async operation(session: Session, raw: unknown): Promise<Plan['operation'] | { error: string }> {
    try {
      return (await this.plan(session, readRequest(raw, '$'))).operation;
    } catch (e) {
      return { error: failure(e).body };
    }
  }

  async plan(session: Session, req: GraphQLRequest): Promise<Plan> {
    const snapshot = this.snapshot;
    if (!snapshot) throw new RequestError('the engine is not ready yet', '$', 'unexpected');
    // backend_only permissions: only with the admin secret and the request's header.
    const backendOnly = session.isAdmin && session.useBackendOnlyPermissions;
    const key = PlanCache.key(backendOnly ? `${session.role}\u0000backend_only` : session.role, req.operationName, req.query);
    const hit = this.cache.get(key, req.variables);
    if (hit) return hit;
    const answer = await this.compiler.compile(snapshot, { role: session.role, backendOnly, query: req.query, operationName: req.operationName, variables: req.variables });
    if (!answer.ok) throw new RequestError(answer.errors[0]!.message, answer.errors[0]!.extensions.path, answer.errors[0]!.extensions.code);
    if (this.snapshot === snapshot) this.cache.set(key, req.variables, answer.plan);
    return answer.plan;
  }

  private async run(plan: Plan, session: Session, req: GraphQLRequest): Promise<string> {
    const variables = checkVariables(plan.variables, req.variables);
    checkSession(plan, session.variables);
    const sessionJson = JSON.stringify(session.variables);
    const texts = plan.operation === 'mutation' ? await this.mutate(plan, variables, sessionJson) : await Promise.all(plan.steps.map((s) => this.step(s, variables, sessionJson)));
    return `{"data":${assemble(plan.steps, texts)}}`;
  }

  private mutate(plan: Plan, variables: Record<string, unknown>, sessionJson: string): Promise<string[]> {
    const sources = new Set(plan.steps.filter((s) => s.kind !== 'static').map((s) => (s as { source: string }).source));
    if (sources.size > 1) throw new RequestError('all mutation fields of a request must be on the same source', '$', 'not-supported');
    const [source] = sources;
    const connected = source === undefined ? undefined : this.runners.get(source);
    if (source !== undefined && !connected) throw new RequestError(`source ${JSON.stringify(source)} is not available`, '$', 'unexpected');
    if (!connected) return Promise.resolve(plan.steps.map((s) => (s.kind === 'static' ? s.json : 'null')));
    return runMutations(connected.runner, connected.backend, plan.steps, variables, sessionJson);
  }

  private async step(s: PlanStep, variables: Record<string, unknown>, sessionJson: string): Promise<string> {
    if (s.kind === 'static') return s.json;
    if (s.kind === 'mutation') throw new RequestError('mutation fields are only allowed in a mutation operation', '$', 'validation-failed');
    const connected = this.runners.get(s.source);
    if (!connected) throw new RequestError(`source ${JSON.stringify(s.source)} is not available`, '$', 'unexpected');
    try {
      return await connected.runner.json(s.text, bindParams(s.params, variables, sessionJson), s.statement);
    } catch (e) {
      throw new ExecutionError(connected.backend.dataError(e, s.text));
    }
  }

  /**
   * `/v1/graphql/explain`: `{query: {query, operationName, variables}, user: {x-service-role, ...}}`.
   * Admin only: the caller has checked the admin secret; the query runs as `user` says.
   */
  async explainRequest(body: Uint8Array): Promise<{ status: number; body: string }> {
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
      const explained = await this.explain(as, req);
      if (explained.operation !== 'subscription') return { status: 200, body: JSON.stringify(explained.fields) };
      // A subscription is explained as one statement, with the variables it is run with.
      const first = explained.fields[0];
      const body = { sql: first?.sql ?? '', plan: first?.plan ?? [], variables: { synthetic: [], query: req.variables, session: variables } };
      return { status: 200, body: JSON.stringify(body) };
    } catch (e) {
      if (e instanceof RequestError) return fail(400, e.path, e.message, e.code);
      if (e instanceof ApiError) return fail(e.status, e.path, e.message, e.code);
      throw e;
    }
  }

  private async explain(session: Session, req: GraphQLRequest): Promise<{ operation: Plan['operation']; fields: { field: string; sql: string; plan: string[] }[] }> {
    const plan = await this.plan(session, req);
    const variables = checkVariables(plan.variables, req.variables);
    const sessionJson = JSON.stringify(session.variables);
    const fields = await Promise.all(
      plan.steps
        .filter((s): s is Extract<PlanStep, { kind: 'sql' }> => s.kind === 'sql')
        .map(async (s) => {
          const connected = this.runners.get(s.source);
          if (!connected) throw new RequestError(`source ${JSON.stringify(s.source)} is not available`, '$', 'unexpected');
          try {
            return { field: s.alias, sql: s.text, plan: await connected.runner.explain(s.text, bindParams(s.params, variables, sessionJson)) };
          } catch (e) {
            // The database refusing the statement (a bad regular expression, say) is the request's fault, as when it runs.
            throw connected.backend.dataError(e, s.text);
          }
        }),
    );
    return { operation: plan.operation, fields };
  }

  async close(): Promise<void> {
    await Promise.all([...this.runners.values()].map((r) => r.runner.close().catch(() => {})));
  }
}

/** A failed request's response text, and its status under `application/graphql-response+json`. */
function failure(e: unknown): { body: string; status: number } {
  if (e instanceof MethodNotAllowed) return { body: errorsBody([e.body()]), status: 405 };
  if (e instanceof RequestError) return { body: errorsBody([e.body()]), status: 400 };
  if (e instanceof ExecutionError) return { body: JSON.stringify({ data: null, errors: [{ message: e.message, extensions: { path: e.error.path, code: e.error.code } }] }), status: 200 };
  if (e instanceof ApiError) return { body: errorsBody([{ message: e.message, extensions: { path: e.path, code: e.code } }]), status: e.status >= 400 ? e.status : 400 };
  log.error('graphql request failed', { error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  return { body: errorsBody([{ message: 'unexpected error while executing the request', extensions: { path: '$', code: 'unexpected' } }]), status: 500 };
}

/** `{"a":<text>,"ns":{"b":<text>}}` from steps whose aliases are dotted paths. */
function assemble(steps: PlanStep[], texts: string[]): string {
  interface Node {
    children: Map<string, Node>;
    text: string | null;
  }
  const root: Node = { children: new Map(), text: null };
  steps.forEach((s, i) => {
    let node = root;
    for (const part of s.alias.split('.')) {
      let next = node.children.get(part);
      if (!next) node.children.set(part, (next = { children: new Map(), text: null }));
      node = next;
    }
    node.text = texts[i]!;
  });
  const write = (n: Node): string => n.text ?? `{${[...n.children].map(([k, c]) => `${JSON.stringify(k)}:${write(c)}`).join(',')}}`;
  return write(root);
}
