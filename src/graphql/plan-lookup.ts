/**
 * Finding a request's plan: the plan cache by (role, operation name, query text) and the
 * values of the variables that shaped it; on a miss, the compiler (the schema-builder actor,
 * whose compiler pools write the statements: one round trip). A new snapshot
 * evicts the plans that read what it changed. A request that fails whatever its variables is
 * answered from here too, without a compile: a document the role's schema does not validate,
 * until the next snapshot, and with the allow-list enabled, a document it refuses, until the
 * document's top-level sections (which hold the allow-list) change.
 */
import type { SnapshotBus } from '../actors/snapshot-bus.js';
import type { Session } from '../auth/session.js';
import { RequestError } from '../errors/request.js';
import type { Plan } from '../protocol/plan.js';
import type { PublishedSnapshot } from '../protocol/snapshot.js';
import type { AnalyzeRequest, CompileAnswer } from '../protocol/messages.js';
import { PlanCache } from './plan-cache.js';
import { log } from '../log.js';
import { PersistedQueries } from './persisted-queries.js';
import type { GraphQLRequest } from './request.js';
import { endSpan, traces, type Context } from '../observability/traces/tracer.js';

/** What compiles a request on a miss (the schema-builder actor's client). */
export interface Compiler {
  compile(snapshot: PublishedSnapshot, req: AnalyzeRequest): Promise<CompileAnswer>;
}

export class PlanLookup {
  private snapshot: PublishedSnapshot | null = null;
  private readonly cache: PlanCache;
  /** Keys that fail whatever the variables (`CompileFailure.holds`), oldest first, bounded like the plans. */
  private readonly failed = new Map<string, { error: RequestError; holds: 'allowlist' | 'schema' }>();
  /** Automatic persisted queries: a document is kept by its hash once it compiled (and so passed the allow-list). */
  private readonly persisted: PersistedQueries;
  /** The compile under way for a key. */
  private readonly compiling = new Map<string, Promise<Plan>>();

  constructor(
    private readonly compiler: Compiler,
    snapshots: SnapshotBus,
    private readonly cacheSize: number,
    private readonly enableAllowlist: boolean,
    persistedQueriesCacheSize: number,
  ) {
    this.cache = new PlanCache(cacheSize);
    this.persisted = new PersistedQueries(persistedQueriesCacheSize);
    snapshots.subscribe((s) => {
      this.snapshot = s;
      this.cache.evict(s.changes);
      for (const [key, f] of this.failed) if (f.holds === 'schema' || s.changes.everything) this.failed.delete(key);
    });
  }

  /** `/dev/plan_cache`: the cached plans. */
  describe(): ReturnType<PlanCache['describe']> {
    return this.cache.describe();
  }

  /** The request with its document: a persisted query's hash checked, or replaced by the document it stands for. */
  withDocument(req: GraphQLRequest): GraphQLRequest & { query: string } {
    return this.persisted.resolve(req);
  }

  /**
   * The request's plan: a cache hit is answered synchronously (no promise, no microtask: the
   * hot path of every query), a miss through the compiler.
   */
  plan(session: Session, request: GraphQLRequest): Plan | Promise<Plan> {
    return session.trace ? this.tracedPlan(session, request, session.trace) : this.find(session, request);
  }

  /** `found.compiled` is set when the plan had to be compiled. */
  private find(session: Session, request: GraphQLRequest, found?: { compiled: boolean }): Plan | Promise<Plan> {
    const req = this.persisted.resolve(request);
    // backend_only permissions: only with the admin secret and the request's header.
    const backendOnly = session.isAdmin && session.useBackendOnlyPermissions;
    const who = PlanCache.who(session.role, backendOnly, req.operationName);
    const hit = this.cache.get(req.query, who, req.variables);
    if (hit === undefined) return this.miss(session, req, backendOnly, who, found);
    if (req.persistedQuery !== undefined) this.persisted.keep(req);
    return hit;
  }

  /**
   * The plan in a span of the request's trace: `plan_cache` says whether it was found (`hit`:
   * a plan, or a failure kept for the document) or compiled (`miss`: the schema builder parsed,
   * validated and planned the document).
   */
  private async tracedPlan(session: Session, request: GraphQLRequest, trace: Context): Promise<Plan> {
    const span = traces.start('plan', trace);
    const found = { compiled: false };
    try {
      const plan = await this.find(session, request, found);
      span?.setAttribute('plan_cache', found.compiled ? 'miss' : 'hit');
      endSpan(span);
      return plan;
    } catch (e) {
      span?.setAttribute('plan_cache', found.compiled ? 'miss' : 'hit');
      endSpan(span, e);
      throw e;
    }
  }

  /** Not in the plan cache: a failure kept for the document, a compile under way for it, or a new compile. */
  private async miss(session: Session, req: GraphQLRequest & { query: string }, backendOnly: boolean, who: string, found?: { compiled: boolean }): Promise<Plan> {
    const key = `${who}\u0000${req.query}`;
    for (;;) {
      const failure = this.failed.get(key);
      if (failure) throw failure.error;
      // A burst of requests that miss together (subscribers connecting, a popular query after
      // a change evicted it) waits for one compile, then looks again: variables of another
      // shape, or a compile that failed or was outrun by a snapshot, compile on their own.
      const running = this.compiling.get(key);
      if (!running) break;
      await running.catch(() => {});
      const hit = this.cache.get(req.query, who, req.variables);
      if (hit) {
        this.persisted.keep(req);
        return hit;
      }
    }
    if (found) found.compiled = true;
    const compile = this.compile(key, who, session, backendOnly, req);
    this.compiling.set(key, compile);
    try {
      return await compile;
    } finally {
      if (this.compiling.get(key) === compile) this.compiling.delete(key);
    }
  }

  private async compile(key: string, who: string, session: Session, backendOnly: boolean, req: GraphQLRequest & { query: string }): Promise<Plan> {
    const snapshot = this.snapshot;
    if (!snapshot) throw new RequestError('the engine is not ready yet', '$', 'unexpected');
    const allowlist = this.enableAllowlist && session.role !== 'admin';
    const answer = await this.compiler.compile(snapshot, { role: session.role, backendOnly, query: req.query, operationName: req.operationName, variables: req.variables, allowlist });
    if (!answer.ok) {
      const error = new RequestError(answer.errors[0]!.message, answer.errors[0]!.extensions.path, answer.errors[0]!.extensions.code);
      if (answer.holds && this.snapshot === snapshot) this.keepFailure(key, error, answer.holds);
      throw error;
    }
    // Shows what a metadata change evicted (a plan compiled again), at debug level.
    log.debug('plan compiled', { role: session.role, operationName: req.operationName });
    // A plan compiled against a snapshot that has since been replaced may read what changed.
    if (this.snapshot === snapshot) this.cache.set(req.query, who, req.variables, answer.plan);
    this.persisted.keep(req);
    return answer.plan;
  }

  private keepFailure(key: string, error: RequestError, holds: 'allowlist' | 'schema'): void {
    // Shows that such a document is checked once, not on every request, at debug level.
    log.debug(holds === 'allowlist' ? 'operation refused by the allow-list' : 'invalid document kept', { code: error.code });
    this.failed.set(key, { error, holds });
    if (this.failed.size > this.cacheSize) this.failed.delete(this.failed.keys().next().value!);
  }
}
