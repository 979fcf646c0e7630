/**
 * `api_limits` (the well-known engine's metadata key, set by `set_api_limits`): limits on the
 * GraphQL requests of every role but admin. `rate_limit` counts requests in a sliding minute
 * keyed by role and `unique_params` (the client's IP, or a list of session variables);
 * `depth_limit`, `node_limit`, `time_limit` (seconds) and `batch_limit` bound one request.
 * Each has a `global` value and `per_role` overrides. Stored as checked: `disabled` written out
 * (false by default), session variable names lower-cased (they are case-insensitive).
 */
import { parseFailed } from '../errors/admin.js';
import { sessionVariable } from './boolexp-operators.js';
import { bool, isObject, keyPath, nonEmptyStr, ObjectReader, type JsonObject } from '../util/decode.js';
import type { Metadata } from './types.js';

/** `IP`: the client's address; a list: those session variables' values (lower-case names). */
/** The session variable of the role (auth/session.ts names it too). */
const ROLE_VARIABLE = 'x-service-role';

export type UniqueParams = 'IP' | string[];

export interface RateLimit {
  max_reqs_per_min: number;
  unique_params?: UniqueParams;
}

/** `global` is required, as in the well-known engine's documents; `per_role` overrides it. */
export interface Limit<T> {
  global: T;
  per_role?: Record<string, T>;
}

export interface ApiLimits {
  disabled: boolean;
  rate_limit?: Limit<RateLimit>;
  depth_limit?: Limit<number>;
  node_limit?: Limit<number>;
  time_limit?: Limit<number>;
  batch_limit?: Limit<number>;
}

const positiveInt = (v: unknown, path: string): number => {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw parseFailed('expected a positive integer', path);
  return v;
};

const positiveSeconds = (v: unknown, path: string): number => {
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) throw parseFailed('expected a positive number of seconds', path);
  return v;
};

function uniqueParams(v: unknown, path: string): UniqueParams {
  if (v === 'IP') return v;
  if (!Array.isArray(v)) throw parseFailed('expected "IP" or a list of session variables', path);
  return v.map((x, i) => {
    const name = sessionVariable(nonEmptyStr(x, `${path}[${i}]`));
    if (name === null) throw parseFailed(`${JSON.stringify(x)} is not a session variable`, `${path}[${i}]`);
    // The role is part of every key already.
    if (name === ROLE_VARIABLE) throw parseFailed(`${ROLE_VARIABLE} is not a valid unique parameter: the role always keys the rate limit`, `${path}[${i}]`);
    return name;
  });
}

function rateLimit(v: unknown, path: string): RateLimit {
  const r = ObjectReader.of(v, path);
  const l: RateLimit = { max_reqs_per_min: r.required('max_reqs_per_min', positiveInt) };
  const params = r.optional('unique_params', uniqueParams);
  if (params !== undefined) l.unique_params = params;
  r.done();
  return l;
}

const limit = <T>(value: (v: unknown, path: string) => T) => (v: unknown, path: string): Limit<T> => {
  const r = ObjectReader.of(v, path);
  const l: Limit<T> = { global: r.required('global', value) };
  const perRole = r.optional('per_role', (x, p) => {
    if (!isObject(x)) throw parseFailed('expected an object of roles', p);
    return Object.fromEntries(Object.entries(x).map(([role, y]) => [role, value(y, keyPath(p, role))]));
  });
  if (perRole !== undefined) l.per_role = perRole;
  r.done();
  return l;
};

/** `set_api_limits`'s arguments, or the document's `api_limits`: checked, nothing kept of a bad one. */
export function apiLimits(v: unknown, path: string): ApiLimits {
  const r = ObjectReader.of(v, path);
  const l: ApiLimits = { disabled: r.withDefault('disabled', bool, false) };
  const rate = r.optional('rate_limit', limit(rateLimit));
  if (rate) l.rate_limit = rate;
  for (const key of ['depth_limit', 'node_limit', 'batch_limit'] as const) {
    const n = r.optional(key, limit(positiveInt));
    if (n) l[key] = n;
  }
  const time = r.optional('time_limit', limit(positiveSeconds));
  if (time) l.time_limit = time;
  r.done();
  return l;
}

/** A whole document's section (absent: no limits). */
export const apiLimitsSection = (v: unknown, path: string): ApiLimits | undefined => (v === undefined || v === null ? undefined : apiLimits(v, path));

/** Sets (undefined: removes) the section. */
export function setApiLimits(m: Metadata, l: ApiLimits | undefined): void {
  if (l) m.api_limits = l as unknown as JsonObject;
  else delete m.api_limits;
}

/** The limits requests are held to: the stored section as `apiLimits` checked it, unless absent or disabled. */
export function enforcedApiLimits(m: Metadata): ApiLimits | undefined {
  const l = isObject(m.api_limits) ? (m.api_limits as unknown as ApiLimits) : undefined;
  return l && !l.disabled ? l : undefined;
}
