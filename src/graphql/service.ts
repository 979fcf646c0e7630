/**
 * `/v1/graphql` on the front thread. A plan-cache hit binds parameters and runs the
 * prepared statements here, with no thread hop; a miss asks the compiler pool. The
 * JSON text PostgreSQL builds is spliced into the response without being parsed.
 */
import type { Session } from '../auth/session.js';
import { dataError } from '../backends/pg/data-errors.js';
import { QueryRunner } from '../backends/pg/execute.js';
import { RequestError } from '../compiler/errors.js';
import type { CompilerPool } from '../actors/compiler/pool.js';
import type { GraphQLErrorBody, Plan, PlanStep } from '../protocol/plan.js';
import type { PublishedSnapshot } from '../protocol/snapshot.js';
import { ApiError } from '../protocol/errors.js';
import { isObject } from '../util/decode.js';
import { tooDeepAt, tooDeepMessage } from '../util/nesting.js';
import { log } from '../log.js';
import { bindParams, checkSession, checkVariables } from './bind.js';
import { PlanCache } from './plan-cache.js';
import { runMutations } from './mutations.js';

interface SingleRequest {
  query: string;
  operationName: string | null;
  variables: Record<string, unknown>;
}

const errorsBody = (errors: GraphQLErrorBody[]) => JSON.stringify({ errors });

/** A database error while a query ran: answered with `"data": null`, as the well-known engine does. */
class ExecutionError extends Error {
  constructor(readonly error: ApiError) {
    super(error.message);
  }
}

function readRequest(v: unknown, path: string): SingleRequest {
  if (!isObject(v)) throw new RequestError('expected a JSON object with "query"', path, 'parse-failed');
  const deep = tooDeepAt(v, path);
  if (deep) throw new RequestError(tooDeepMessage, deep, 'parse-failed');
  if (typeof v.query !== 'string') throw new RequestError(v.query === undefined ? 'the key "query" was not present' : '"query" must be a string', `${path}.query`, 'parse-failed');
  if (v.operationName !== undefined && v.operationName !== null && typeof v.operationName !== 'string') {
    throw new RequestError('"operationName" must be a string', `${path}.operationName`, 'parse-failed');
  }
  if (v.variables !== undefined && v.variables !== null && !isObject(v.variables)) throw new RequestError('"variables" must be an object', `${path}.variables`, 'parse-failed');
  return { query: v.query, operationName: (v.operationName as string | null | undefined) ?? null, variables: (v.variables as Record<string, unknown> | null | undefined) ?? {} };
}

export class GraphQLService {
  private snapshot: PublishedSnapshot | null = null;
  private readonly runners = new Map<string, { key: string; runner: QueryRunner }>();
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
        this.runners.set(src.name, { key, runner: new QueryRunner(src.configuration) });
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

  /** The response body (JSON text) for a request body: one request or a batch. */
  async handle(session: Session, body: Uint8Array): Promise<string> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
    } catch {
      return errorsBody([{ message: 'the request body is not valid JSON', extensions: { path: '$', code: 'invalid-json' } }]);
    }
    if (Array.isArray(parsed)) {
      const answers = await Promise.all(parsed.map((r, i) => this.single(session, r, `$[${i}]`)));
      return `[${answers.join(',')}]`;
    }
    return this.single(session, parsed, '$');
  }

  /** One request's response text (errors included): the unit of batches, WebSocket operations and live-query polls. */
  async single(session: Session, raw: unknown, path: string): Promise<string> {
    try {
      const req = readRequest(raw, path);
      const plan = await this.plan(session, req);
      return await this.run(plan, session, req);
    } catch (e) {
      return errorText(e);
    }
  }

  /** The operation kind of a request, when it compiles (a WebSocket `start` needs it before running). */
  async operation(session: Session, raw: unknown): Promise<Plan['operation'] | { error: string }> {
    try {
      return (await this.plan(session, readRequest(raw, '$'))).operation;
    } catch (e) {
      return { error: errorText(e) };
    }
  }

  async plan(session: Session, req: SingleRequest): Promise<Plan> {
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

  private async run(plan: Plan, session: Session, req: SingleRequest): Promise<string> {
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
    const runner = source === undefined ? undefined : this.runners.get(source)?.runner;
    if (source !== undefined && !runner) throw new RequestError(`source ${JSON.stringify(source)} is not available`, '$', 'unexpected');
    if (!runner) return Promise.resolve(plan.steps.map((s) => (s.kind === 'static' ? s.json : 'null')));
    return runMutations(runner, plan.steps, variables, sessionJson);
  }

  private async step(s: PlanStep, variables: Record<string, unknown>, sessionJson: string): Promise<string> {
    if (s.kind === 'static') return s.json;
    if (s.kind === 'mutation') throw new RequestError('mutation fields are only allowed in a mutation operation', '$', 'validation-failed');
    const runner = this.runners.get(s.source)?.runner;
    if (!runner) throw new RequestError(`source ${JSON.stringify(s.source)} is not available`, '$', 'unexpected');
    try {
      return await runner.json(s.text, bindParams(s.params, variables, sessionJson), s.statement);
    } catch (e) {
      throw new ExecutionError(dataError(e, s.text));
    }
  }

  /** `/v1/graphql/explain` (admin only): `{query: {query, operationName, variables}, user: {x-service-role, ...}}`. */
  async explainRequest(session: Session, body: Uint8Array): Promise<{ status: number; body: string }> {
    const fail = (status: number, path: string, error: string, code: string) => ({ status, body: JSON.stringify({ path, error, code }) });
    if (!session.isAdmin || session.role !== 'admin') return fail(400, '$', 'restricted access : admin only', 'access-denied');
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
    const as: Session = { ...session, role: variables['x-service-role'] ?? 'admin', variables };
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

  private async explain(session: Session, req: SingleRequest): Promise<{ operation: Plan['operation']; fields: { field: string; sql: string; plan: string[] }[] }> {
    const plan = await this.plan(session, req);
    const variables = checkVariables(plan.variables, req.variables);
    const sessionJson = JSON.stringify(session.variables);
    const fields = await Promise.all(
      plan.steps
        .filter((s): s is Extract<PlanStep, { kind: 'sql' }> => s.kind === 'sql')
        .map(async (s) => ({ field: s.alias, sql: s.text, plan: await this.runners.get(s.source)!.runner.explain(s.text, bindParams(s.params, variables, sessionJson)) })),
    );
    return { operation: plan.operation, fields };
  }

  async close(): Promise<void> {
    await Promise.all([...this.runners.values()].map((r) => r.runner.close().catch(() => {})));
  }
}

/** A failed request's response text. */
function errorText(e: unknown): string {
  if (e instanceof RequestError) return errorsBody([e.body()]);
  if (e instanceof ExecutionError) return JSON.stringify({ data: null, errors: [{ message: e.message, extensions: { path: e.error.path, code: e.error.code } }] });
  if (e instanceof ApiError) return errorsBody([{ message: e.message, extensions: { path: e.path, code: e.code } }]);
  log.error('graphql request failed', { error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  return errorsBody([{ message: 'unexpected error while executing the request', extensions: { path: '$', code: 'unexpected' } }]);
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
