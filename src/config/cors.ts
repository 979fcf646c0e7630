/**
 * `--cors-domain` / `SERVICE_GRAPHQL_CORS_DOMAIN`, as the well-known engine reads it: `*` or a
 * list of origins (scheme, host and port significant; `https://*.example.com` allows any
 * one-label subdomain, not the domain itself). The front thread applies it (`http/cors.ts`).
 */

export type CorsConfig =
  | { kind: 'all' }
  | { kind: 'origins'; exact: ReadonlySet<string>; wildcards: ReadonlySet<string> }
  | { kind: 'disabled'; wsReadCookie: boolean };

const WILDCARD = '*.';

/** `*` or comma-separated origins; throws an Error naming the bad entry. */
export function parseCorsDomains(text: string): CorsConfig {
  if (text.trim() === '*') return { kind: 'all' };
  const exact = new Set<string>();
  const wildcards = new Set<string>();
  for (const raw of text.split(',')) {
    const entry = raw.trim();
    const scheme = /^https?:\/\//i.exec(entry)?.[0];
    const wildcard = scheme !== undefined && entry.slice(scheme.length).startsWith(WILDCARD);
    const origin = normalOrigin(wildcard ? scheme + entry.slice(scheme.length + WILDCARD.length) : entry);
    if (!origin) throw new Error(`invalid domain: "${entry}"; expected scheme://host[:port], the host optionally starting with "*."`);
    (wildcard ? wildcards : exact).add(origin);
  }
  return { kind: 'origins', exact, wildcards };
}

/** `scheme://host[:port]` as browsers send it (lower case, default port left out), or null. */
function normalOrigin(text: string): string | null {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  if (u.username || u.password || u.search || u.hash || u.host.includes('*')) return null;
  // Nothing after the authority but an optional `/`.
  if (!new RegExp(`^${u.protocol}//[^/]+/?$`, 'i').test(text)) return null;
  return u.origin;
}
