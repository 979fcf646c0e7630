/**
 * JSON text with every object's keys sorted: equal for values that differ only in key order
 * (a source's configuration as stored and as decoded from a request, say).
 */
export function canonicalJson(v: unknown): string {
  return JSON.stringify(v, (_key, value: unknown) =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.keys(value).sort().map((k) => [k, (value as Record<string, unknown>)[k]]))
      : value,
  );
}
