/**
 * The API limits (`api_limits`) as the front thread applies them, to every role but admin (as
 * the well-known engine exempts it): a role's own value (`per_role`) else the global one. The
 * rate limit counts requests per role and unique parameters in a sliding minute
 * (`rate-windows.ts`); depth and node counts are the plan's (computed when it compiled); the
 * time limit goes to the executor; the batch limit bounds a batched POST. With no limits (or
 * `disabled`), `of` answers null at once and nothing else runs.
 */
import { ADMIN_ROLE, type Session } from '../auth/session.js';
import { LimitExceeded } from '../errors/request.js';
import type { ApiLimits, Limit, RateLimit, UniqueParams } from '../metadata/api-limits.js';
import type { Plan } from '../protocol/plan.js';
import type { RateDecision, RateWindows } from './rate-windows.js';

/** One role's limits, resolved once per snapshot. */
export interface RoleLimits {
  /** `prefix`: the window key's start, the role's name (URI-encoded: keys are `<role>[:<value>...]`). */
  rate?: { max: number; params: UniqueParams | undefined; prefix: string };
  depth?: number;
  nodes?: number;
  /** Seconds. */
  time?: number;
  batch?: number;
}

/** Response headers (name, value). */
export type LimitHeaders = [string, string][];

/** The rate limit's headers among an answer's (a batch's answer carries those of its last operation). */
export const rateLimitHeaders = (headers: readonly [string, string][] | undefined): LimitHeaders => (headers ?? []).filter(([name]) => name.startsWith('RateLimit-') || name === 'Retry-After');

const pick = <T>(l: Limit<T> | undefined, role: string): T | undefined => (l ? (l.per_role?.[role] ?? l.global) : undefined);

function roleLimits(l: ApiLimits, role: string): RoleLimits | null {
  const out: RoleLimits = {};
  const rate: RateLimit | undefined = pick(l.rate_limit, role);
  if (rate) out.rate = { max: rate.max_reqs_per_min, params: rate.unique_params, prefix: encodeURIComponent(role) };
  const depth = pick(l.depth_limit, role);
  if (depth !== undefined) out.depth = depth;
  const nodes = pick(l.node_limit, role);
  if (nodes !== undefined) out.nodes = nodes;
  const time = pick(l.time_limit, role);
  if (time !== undefined) out.time = time;
  const batch = pick(l.batch_limit, role);
  if (batch !== undefined) out.batch = batch;
  return Object.keys(out).length > 0 ? out : null;
}

export class ApiLimitsGuard {
  private limits: ApiLimits | undefined;
  private readonly byRole = new Map<string, RoleLimits | null>();
  /** Some rate limit counts by client address: only then is a request's address read (uWS makes a string of it). */
  private byAddress = false;

  constructor(private readonly windows: RateWindows) {}

  /** A snapshot's limits (undefined: none). */
  update(limits: ApiLimits | undefined): void {
    if (limits === this.limits) return;
    this.limits = limits;
    this.byRole.clear();
    const rates = limits?.rate_limit ? [limits.rate_limit.global, ...Object.values(limits.rate_limit.per_role ?? {})] : [];
    this.byAddress = rates.some((r) => r?.unique_params === 'IP');
  }

  /** Whether a request's client address is needed (a rate limit by IP is set). */
  get readsAddress(): boolean {
    return this.byAddress;
  }

  /** The session's limits; null when none apply (no limits, or admin). */
  of(session: Session): RoleLimits | null {
    if (this.limits === undefined || session.role === ADMIN_ROLE) return null;
    let l = this.byRole.get(session.role);
    if (l === undefined) this.byRole.set(session.role, (l = roleLimits(this.limits, session.role)));
    return l;
  }

  /**
   * Counts the request against the role's rate limit: the `RateLimit-*` headers of the answer
   * (none without a rate limit), at once when counted on this node. Over the limit:
   * `RateLimitExceeded` carrying them and `Retry-After` (thrown, or the promise rejected). `now`:
   * `performance.now()` of the request (its deadline counts from it too).
   */
  admit(limits: RoleLimits, session: Session, now: number): LimitHeaders | undefined | Promise<LimitHeaders> {
    const rate = limits.rate;
    if (!rate) return undefined;
    const d = this.windows.take(rateKey(session, rate), rate.max, now);
    return d instanceof Promise ? d.then((x) => decided(rate.max, x)) : decided(rate.max, d);
  }
}

/** The answer's headers, or over the limit `RateLimitExceeded` carrying them. */
function decided(max: number, d: RateDecision): LimitHeaders {
  const reset = String(Math.max(1, Math.ceil(d.resetMs / 1000)));
  const headers: LimitHeaders = [
    ['RateLimit-Limit', String(max)],
    ['RateLimit-Remaining', String(Math.max(0, max - d.count))],
    ['RateLimit-Reset', reset],
  ];
  if (d.allowed) return headers;
  throw new RateLimitExceeded(max, [['Retry-After', reset], ...headers]);
}

/** Over the rate limit: 429, with the headers that say when to come back. */
export class RateLimitExceeded extends LimitExceeded {
  constructor(
    max: number,
    readonly headers: LimitHeaders,
  ) {
    super(`rate limit of ${max} exceeded`, 'rate-limit-exceeded', 429);
  }
}

/** The window's key: the role and the unique parameters' values, URI-encoded, `:` between them (a missing session variable counts as empty). */
function rateKey(session: Session, { params, prefix }: NonNullable<RoleLimits['rate']>): string {
  if (params === undefined) return prefix;
  if (params === 'IP') return `${prefix}:${encodeURIComponent(session.clientAddress ?? '')}`;
  let key = prefix;
  for (const p of params) key += `:${encodeURIComponent(session.variables[p] ?? '')}`;
  return key;
}

/** Depth and node count of the plan's operation against the role's limits. */
export function checkSize(limits: RoleLimits, plan: Plan): void {
  const { depth, nodes } = plan.size;
  if (limits.depth !== undefined && depth > limits.depth) throw new LimitExceeded(`depth limit of ${limits.depth} exceeded: the operation is ${depth} deep`, 'depth-limit-exceeded');
  if (limits.nodes !== undefined && nodes > limits.nodes) throw new LimitExceeded(`node limit of ${limits.nodes} exceeded: the operation has ${nodes} nodes`, 'node-limit-exceeded');
}

/** The operations of a batched POST against the role's batch limit. */
export function checkBatch(limits: RoleLimits | null, operations: number): void {
  if (limits?.batch !== undefined && operations > limits.batch) throw new LimitExceeded(`batch limit of ${limits.batch} exceeded: the request has ${operations} operations`, 'batch-limit-exceeded');
}
