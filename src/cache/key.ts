/**
 * A cached answer's keys (the well-known engine's): the family hashes the document (printed
 * without `@cached`, so whitespace does not count), the metadata version, the operation name, the role and the session
 * variables the plan reads (all of them, and the client's forwarded headers, when a remote schema
 * or an action is called); the key adds the variables' values. One user's answer is never
 * another's: whatever of the caller can change the answer is in both.
 */
import { createHash } from 'node:crypto';
import type { Plan, PlanCache } from '../protocol/plan.js';
import { NOT_FORWARDED } from '../outgoing/forwarded-headers.js';
import { canonicalJson } from '../util/canonical-json.js';

export interface CacheKeys {
  key: string;
  family: string;
}

export interface KeyedRequest {
  operationName: string | null;
  variables: Record<string, unknown>;
  role: string;
  session: Record<string, string>;
  headers: Record<string, string> | undefined;
  /** The metadata version the plan was compiled under: a metadata change (a permission, say) makes new keys. */
  metadataVersion: number;
}

const hash = (text: string) => createHash('sha256').update(text).digest('hex');

export function cacheKeys(plan: Plan & { cache: PlanCache }, req: KeyedRequest): CacheKeys {
  const caller = plan.cache.caller === true;
  const names = caller || plan.wholeSession ? Object.keys(req.session).sort() : plan.sessionVariables;
  const parts = [String(req.metadataVersion), plan.cache.document, req.operationName ?? '', req.role];
  for (const name of names) parts.push(`${name}=${req.session[name] ?? ''}`);
  if (caller && req.headers) {
    for (const name of Object.keys(req.headers).sort()) if (!NOT_FORWARDED.has(name)) parts.push(`${name}:${req.headers[name]}`);
  }
  const family = hash(parts.join('\u0000'));
  return { family, key: hash(`${family}\u0000${canonicalJson(req.variables)}`) };
}
