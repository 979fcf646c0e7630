/**
 * The `api_limits` document and the form's text fields, both ways. A limit is sent when its
 * global value or a role's is filled; the engine checks the rest (a role's value without a
 * global one, a number that is not one) and its refusal names the path.
 */

export interface RoleValue {
  role: string;
  value: string;
  /** Rate limit only: `IP`, or session variables, comma-separated; empty for none. */
  unique: string;
}

export interface LimitInput {
  global: string;
  globalUnique: string;
  perRole: RoleValue[];
}

export const NUMBER_LIMITS = [
  { key: 'depth_limit', title: 'Depth limit', hint: 'the deepest nesting of fields with a selection set' },
  { key: 'node_limit', title: 'Node limit', hint: 'fields with a selection set in an operation' },
  { key: 'time_limit', title: 'Time limit', hint: 'seconds a request may run (fractions allowed)' },
  { key: 'batch_limit', title: 'Batch limit', hint: 'operations in one batched request' },
] as const;

export const RATE_LIMIT = { key: 'rate_limit', title: 'Rate limit', hint: 'requests per minute, per role and unique parameters' } as const;

export type LimitKey = (typeof NUMBER_LIMITS)[number]['key'] | typeof RATE_LIMIT.key;

export interface LimitsInput {
  disabled: boolean;
  limits: Record<LimitKey, LimitInput>;
}

type RateValue = { max_reqs_per_min: number; unique_params?: 'IP' | string[] };
type Stored = { global?: number | RateValue; per_role?: Record<string, number | RateValue> };

const uniqueText = (u: unknown): string => (u === 'IP' ? 'IP' : Array.isArray(u) ? u.join(', ') : '');

const uniqueParams = (text: string): 'IP' | string[] | undefined => {
  const t = text.trim();
  if (!t) return undefined;
  if (t.toUpperCase() === 'IP') return 'IP';
  return t
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
};

const readValue = (key: LimitKey, v: number | RateValue | undefined): { value: string; unique: string } =>
  v === undefined ? { value: '', unique: '' } : key === 'rate_limit' && typeof v === 'object' ? { value: String(v.max_reqs_per_min), unique: uniqueText(v.unique_params) } : { value: String(v), unique: '' };

export function inputOf(apiLimits: Record<string, unknown> | undefined): LimitsInput {
  const limits = {} as Record<LimitKey, LimitInput>;
  for (const { key } of [...NUMBER_LIMITS, RATE_LIMIT]) {
    const stored = (apiLimits?.[key] ?? {}) as Stored;
    const global = readValue(key, stored.global);
    limits[key] = {
      global: global.value,
      globalUnique: global.unique,
      perRole: Object.entries(stored.per_role ?? {}).map(([role, v]) => ({ role, ...readValue(key, v) })),
    };
  }
  return { disabled: apiLimits?.disabled === true, limits };
}

const numberOf = (text: string): number => (text.trim() === '' ? NaN : Number(text));

const valueOf = (key: LimitKey, value: string, unique: string): number | RateValue => {
  if (key !== 'rate_limit') return numberOf(value);
  const params = uniqueParams(unique);
  return { max_reqs_per_min: numberOf(value), ...(params ? { unique_params: params } : {}) };
};

/** The `set_api_limits` arguments; empty limits are left out. */
export function documentOf(input: LimitsInput): Record<string, unknown> {
  const doc: Record<string, unknown> = { disabled: input.disabled };
  for (const { key } of [...NUMBER_LIMITS, RATE_LIMIT]) {
    const l = input.limits[key];
    const roles = l.perRole.filter((r) => r.role.trim() !== '');
    if (l.global.trim() === '' && roles.length === 0) continue;
    doc[key] = {
      ...(l.global.trim() !== '' ? { global: valueOf(key, l.global, l.globalUnique) } : {}),
      ...(roles.length > 0 ? { per_role: Object.fromEntries(roles.map((r) => [r.role.trim(), valueOf(key, r.value, r.unique)])) } : {}),
    };
  }
  return doc;
}
