/**
 * `/v1/graphql` on the front thread, the facade HTTP and WebSocket handlers call: a
 * request is read (`request.ts`), its plan looked up (`plan-lookup.ts`: a cache hit runs
 * with no thread hop, a miss asks the plan compiler), then run by the executor
 * (`execute/`) on the sources' pools (`source-pools.ts`).
 */
import type { SnapshotBus } from '../actors/snapshot-bus.js';
import type { Session } from '../auth/session.js';
import { execute, executeData, responseText, type ExecuteRequest } from '../execute/executor.js';
import { MethodNotAllowed } from '../errors/request.js';
import { toAdminReply } from '../errors/admin-reply.js';
import { RestRoutes, restRequest, type RestMatch } from './rest-routes.js';
import type { Plan, PlanCache } from '../protocol/plan.js';
import type { CachedData, ResponseCache } from '../cache/response-cache.js';
import { explainRequest } from './explain.js';
import { toGraphQLReply } from '../errors/graphql-reply.js';
import { PlanLookup, type Compiler } from './plan-lookup.js';
import { readRequest, readRequestBody, type GraphQLRequest } from './request.js';
import { SourcePools, type PoolMeters } from '../execute/source-pools.js';
import { RemoteServers } from '../remote/servers.js';
import type { SourceConnections } from '../execute/connections.js';
import type { ActionCalls } from '../execute/action.js';
import { HttpClient } from '../outgoing/http-client.js';

/** An action handler's answer past this is refused (as a remote schema's). */
const ACTION_MAX_ANSWER_BYTES = 64 * 1024 * 1024;
import type { TlsAllowlist } from '../outgoing/tls-allowlist.js';
import { Subscriptions } from './subscriptions.js';
import type { Corkable, Deliver, Multiplexers } from '../actors/multiplexer/client.js';
import type { MeteredOperation, RequestMeter } from './request-meter.js';
import { ApiLimitsGuard, checkBatch, checkSize, RateLimitExceeded, rateLimitHeaders, type LimitHeaders, type RoleLimits } from './api-limits.js';
import { RateWindows, type SharedWindows } from './rate-windows.js';
import { Deadlines, type Deadline } from '../execute/deadlines.js';

/** The answer to an HTTP request. */
export interface GraphQLReply {
  body: string;
  /** The status under `application/graphql-response+json`: 200 when the body has `data`, else 4xx/5xx. */
  status: number;
  /** A malformed request or a method the operation does not allow: `status` under `application/json` too. */
  protocolError: boolean;
  /** `Set-Cookie` values of the remote schemas and action handlers the request called, for the HTTP response. */
  setCookies?: string[];
  /** The plan's parameterized query hash, when the request compiled (its http-log line). */
  queryHash?: string;
  /** Response headers: a `@cached` query's `Cache-Control` and cache keys, the rate limit's (`RateLimit-*`, and `Retry-After` when over it) when the role has one. */
  headers?: [string, string][];
}

export class GraphQLService {
  private readonly plans: PlanLookup;
  private readonly sources: SourcePools;
  private readonly remotes: RemoteServers;
  /** The sources' pools and the remote schemas' servers: what plans run on. */
  private readonly connections: SourceConnections;
  private readonly subscriptions: Subscriptions;
  /** Synchronous actions' handlers are called on this client (keep-alive, the TLS allow-list). */
  private readonly actionClient: HttpClient;
  private readonly meter: RequestMeter | null;
  /** `@cached` queries' answers (cache/); absent, they run as any query. */
  private readonly cache: ResponseCache | null;
  /** The current metadata version: a cached answer's key has it. */
  private metadataVersion = 0;
  private readonly windows: RateWindows;
  private readonly limits: ApiLimitsGuard;
  /** The time limits' deadlines (one timer per limit value). */
  private readonly deadlines = new Deadlines();

  constructor(
    compiler: Compiler,
    snapshots: SnapshotBus,
    multiplexers: Multiplexers,
    /** `rateLimits`: the shared store of the rate limits' windows (Redis), absent: this node counts alone. */
    options: { enableAllowlist: boolean; persistedQueriesCacheSize: number; meter?: RequestMeter; poolMeters?: PoolMeters; responseCache?: ResponseCache; rateLimits?: SharedWindows },
    tlsAllowlist: TlsAllowlist,
    actionLog?: Omit<ActionCalls, 'client'>,
    cacheSize = 10_000,
  ) {
    this.meter = options.meter ?? null;
    this.cache = options.responseCache ?? null;
    this.plans = new PlanLookup(compiler, snapshots, cacheSize, options.enableAllowlist, options.persistedQueriesCacheSize);
    this.sources = new SourcePools(snapshots, undefined, options.poolMeters);
    this.remotes = new RemoteServers(snapshots, tlsAllowlist);
    this.actionClient = new HttpClient(60_000, ACTION_MAX_ANSWER_BYTES, tlsAllowlist);
    this.connections = { get: (name) => this.sources.get(name), remote: (name) => this.remotes.get(name), ...(actionLog ? { actions: { ...actionLog, client: this.actionClient } } : {}) };
    this.subscriptions = new Subscriptions(this.plans, multiplexers, snapshots, (plan, session, variables) => execute(plan, { variables, session: session.variables }, this.connections));
    snapshots.subscribe((s) => {
      this.rest.update(s.restEndpoints);
      this.metadataVersion = s.version;
    });
    this.windows = new RateWindows(options.rateLimits ?? null);
    this.limits = new ApiLimitsGuard(this.windows);
    snapshots.subscribe((s) => this.limits.update(s.apiLimits));
  }

  private readonly rest = new RestRoutes();

  /**
   * A RESTified endpoint's call: its query with the variables the call carries; the answer's
   * `data`, or the first error as `{path, error, code}` with its status (docs/behaviour.md).
   */
  async restCall(session: Session, call: { method: string; path: string; search: string; body: string | null }): Promise<{ status: number; body: string; allow?: string[]; setCookies?: string[]; headers?: [string, string][] }> {
    const found = this.rest.match(call.method, call.path);
    if (found.kind === 'not-found') return restError(404, `no REST endpoint matches ${call.method} /api/rest/${call.path}`, 'not-found');
    if (found.kind === 'method-not-allowed') return { ...restError(405, `method ${call.method} is not allowed on /api/rest/${call.path}`, 'method-not-allowed'), allow: found.allowed };
    // Whatever the answer, the cookies of the calls that were made go with it (as on /v1/graphql).
    const setCookies: string[] = [];
    return { ...(await this.restAnswer(session, found, call, setCookies)), setCookies };
  }

  private async restAnswer(session: Session, found: Extract<RestMatch, { kind: 'found' }>, call: { search: string; body: string | null }, setCookies: string[]): Promise<{ status: number; body: string; headers?: [string, string][] }> {
    const limits = this.limits.of(session);
    let headers: LimitHeaders | undefined;
    try {
      const req = restRequest(found.route, found.params, call.search, call.body);
      const now = limits ? performance.now() : 0;
      if (limits) headers = await this.limits.admit(limits, session, now);
      const plan = await this.plans.plan(session, req);
      if (limits) checkSize(limits, plan);
      // The time limit's deadline is armed only when the plan runs (a cache hit runs nothing).
      if (plan.cache && this.cache) {
        const cached = await this.cached(this.cache, plan as Plan & { cache: PlanCache }, session, req, () => executeRequest(session, req, setCookies, this.deadline(limits, now)));
        return { status: 200, body: cached.data, headers: [...cached.headers, ...(headers ?? [])] };
      }
      const body = await executeData(plan, executeRequest(session, req, setCookies, this.deadline(limits, now)), this.connections);
      if (plan.operation === 'mutation') await this.cache?.evictTables(plan.reads.tables);
      return { status: 200, body, ...(headers ? { headers } : {}) };
    } catch (e) {
      headers = limitHeaders(e) ?? headers;
      return { ...toAdminReply(e, { where: 'RESTified endpoint call', internal: false }), ...(headers ? { headers } : {}) };
    }
  }

  /** A POST body: one request or a batch; `startedAt`: when it came (metrics). */
  post(session: Session, body: Uint8Array, startedAt = 0): Promise<GraphQLReply> {
    let requests: GraphQLRequest | GraphQLRequest[];
    try {
      requests = readRequestBody(body);
    } catch (e) {
      this.meter?.request('unknown', false, startedAt);
      return Promise.resolve({ ...toGraphQLReply(e), protocolError: true });
    }
    // One request is answered with no async layer of its own.
    return Array.isArray(requests) ? this.batch(session, requests, startedAt) : this.answer(session, requests, false, startedAt);
  }

  private async batch(session: Session, requests: GraphQLRequest[], startedAt: number): Promise<GraphQLReply> {
    try {
      checkBatch(this.limits.of(session), requests.length);
    } catch (e) {
      this.meter?.request('unknown', false, startedAt);
      return { ...toGraphQLReply(e), protocolError: false };
    }
    const answers = await Promise.all(requests.map((r) => this.answer(session, r, false, startedAt)));
    // Each operation counted against the rate limit: the answer tells where the last one left it (a batch's answers share one response: no one entry's cache headers).
    const headers = rateLimitHeaders(answers.findLast((a) => rateLimitHeaders(a.headers).length > 0)?.headers);
    return { body: `[${answers.map((a) => a.body).join(',')}]`, status: 200, protocolError: false, setCookies: answers.flatMap((a) => a.setCookies ?? []), ...(headers.length > 0 ? { headers } : {}) };
  }

  /** A GET request: queries only. */
  get(session: Session, request: GraphQLRequest, startedAt = 0): Promise<GraphQLReply> {
    return this.answer(session, request, true, startedAt);
  }

  /** One request's response text (errors included): the unit of WebSocket operations, admitted by `operation` (the API limits). */
  async single(session: Session, raw: unknown, path: string): Promise<string> {
    const startedAt = this.meter ? performance.now() : 0;
    try {
      return (await this.answer(session, readRequest(raw, path), false, startedAt, true)).body;
    } catch (e) {
      this.meter?.request('unknown', false, startedAt);
      return toGraphQLReply(e).body;
    }
  }

  /** `admitted`: the API limits' rate, depth and node checks were made already (a WebSocket operation's, by `operation`). */
  private async answer(session: Session, req: GraphQLRequest, queriesOnly: boolean, startedAt: number, admitted = false): Promise<GraphQLReply> {
    // A cookie set by a call that went through stays set when a later step fails (RFC 6265 allows it on any status).
    const setCookies: string[] = [];
    let operation: MeteredOperation = 'unknown';
    const limits = this.limits.of(session);
    // One clock read for the rate limit's window and the time limit's deadline.
    const now = limits ? performance.now() : 0;
    let headers: LimitHeaders | undefined;
    try {
      if (limits && !admitted) {
        const admitting = this.limits.admit(limits, session, now);
        headers = admitting instanceof Promise ? await admitting : admitting;
      }
      // A cache hit comes synchronously: awaited only when it is a compile.
      const planned = this.plans.plan(session, req);
      const plan = planned instanceof Promise ? await planned : planned;
      if (queriesOnly && plan.operation !== 'query') throw new MethodNotAllowed(`GET requests may only run queries, not a ${plan.operation}`, '$', 'method-not-allowed');
      if (limits && !admitted) checkSize(limits, plan);
      operation = plan.operation;
      // The time limit's deadline is armed only when the plan runs (a cache hit runs nothing).
      if (plan.cache && this.cache) {
        const cached = await this.cached(this.cache, plan as Plan & { cache: PlanCache }, session, req, () => executeRequest(session, req, setCookies, this.deadline(limits, now)));
        this.meter?.request(operation, true, startedAt);
        return { body: responseText(cached.data, cached.errors), status: 200, protocolError: false, setCookies, queryHash: plan.queryHash, headers: [...cached.headers, ...(headers ?? [])] };
      }
      const errors: unknown[] = [];
      const body = responseText(await executeData(plan, executeRequest(session, req, setCookies, this.deadline(limits, now)), this.connections, errors), errors);
      // A write through this engine evicts the cached answers that read its tables (cache/response-cache.ts).
      if (operation === 'mutation') await this.cache?.evictTables(plan.reads.tables);
      this.meter?.request(operation, true, startedAt);
      return { body, status: 200, protocolError: false, setCookies, queryHash: plan.queryHash, ...(headers ? { headers } : {}) };
    } catch (e) {
      this.meter?.request(operation, false, startedAt);
      headers = limitHeaders(e) ?? headers;
      return { ...toGraphQLReply(e), protocolError: e instanceof MethodNotAllowed, setCookies, ...(headers ? { headers } : {}) };
    }
  }

  /** A `@cached` query's `data`, from the response cache or run and stored. */
  private cached(cache: ResponseCache, plan: Plan & { cache: PlanCache }, session: Session, req: GraphQLRequest, request: () => ExecuteRequest): Promise<CachedData & { errors: unknown[] }> {
    const keyed = { operationName: req.operationName, variables: req.variables, role: session.role, session: session.variables, headers: session.clientHeaders, metadataVersion: this.metadataVersion };
    return cache.data(plan, keyed, (errors) => executeData(plan, request(), this.connections, errors));
  }

  /** Whether requests must carry their client's address (`Session.clientAddress`): a rate limit counts by IP. */
  readsClientAddress(): boolean {
    return this.limits.readsAddress;
  }

  /** `POST /pro/cache/clear` (admin only): the entry of `key`, the entries of `family`, or all of them. */
  async clearCache(what: { key?: string; family?: string }): Promise<{ status: number; body: string }> {
    const cleared = this.cache ? await this.cache.clear(what) : 0;
    return { status: 200, body: JSON.stringify({ message: 'success', cleared }) };
  }

  /** The request's deadline, when its role has a time limit, counted from `now` (when it came). */
  private deadline(limits: RoleLimits | null, now: number): Deadline | undefined {
    return limits?.time === undefined ? undefined : this.deadlines.start(limits.time, now);
  }

  /**
   * The operation kind of a request, when it compiles (a WebSocket `start` needs it before
   * running), once it passed the API limits: each WebSocket operation counts against the rate
   * limit, as a request does.
   */
  async operation(session: Session, raw: unknown): Promise<Plan['operation'] | { error: string }> {
    try {
      const request = readRequest(raw, '$');
      const limits = this.limits.of(session);
      if (limits) await this.limits.admit(limits, session, performance.now());
      const plan = await this.plans.plan(session, request);
      if (limits) checkSize(limits, plan);
      const operation = plan.operation;
      // Queries and mutations are counted as they run (`single`); a subscription as it starts.
      if (operation === 'subscription') this.meter?.request(operation, true, 0);
      return operation;
    } catch (e) {
      this.meter?.request('unknown', false, 0);
      return { error: toGraphQLReply(e).body };
    }
  }

  /** Starts a subscription (a live query); `deliver` gets each changed result, written on `connection`. Returns how to stop it. */
  subscribe(session: Session, raw: unknown, deliver: Deliver, connection?: Corkable): Promise<() => void> {
    return this.subscriptions.subscribe(session, raw, deliver, connection);
  }

  /** Each source's open connections in the front thread's pools (metrics). */
  openConnections(): Iterable<[string, number]> {
    return this.sources.openConnections();
  }

  /** `/dev/plan_cache` (admin only: the caller has checked the admin secret). */
  planCache(): unknown {
    return this.plans.describe();
  }

  /** `/v1/graphql/explain` (admin only: the caller has checked the admin secret). */
  explainRequest(body: Uint8Array): Promise<{ status: number; body: string }> {
    return explainRequest(body, this.plans, this.sources);
  }

  async close(): Promise<void> {
    await this.windows.close();
    this.deadlines.close();
    await this.subscriptions.close();
    await this.cache?.close();
    await this.sources.close();
    this.remotes.close();
    this.actionClient.close();
  }
}

/** What the executor is told of an HTTP request; `deadline`: its time limit's. */
function executeRequest(session: Session, req: GraphQLRequest, setCookies: string[], deadline: Deadline | undefined): ExecuteRequest {
  const r: ExecuteRequest = {
    variables: req.variables,
    session: session.variables,
    headers: session.clientHeaders ?? {},
    setCookies,
    requestId: session.requestId,
    operationName: req.operationName,
    trace: session.trace,
  };
  if (deadline) r.deadline = deadline;
  return r;
}

/** The headers a refusal by the rate limit carries. */
const limitHeaders = (e: unknown): LimitHeaders | undefined => (e instanceof RateLimitExceeded ? e.headers : undefined);

const restError = (status: number, error: string, code: string, path = '$') => ({ status, body: JSON.stringify({ path, error, code }) });
