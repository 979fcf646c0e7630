/**
 * Cross-origin requests, with the well-known engine's conventions (`--cors-domain`,
 * `--disable-cors`, `--ws-read-cookie`): `*` or a list of origins (scheme, host and port
 * significant; `https://*.example.com` allows any one-label subdomain, not the domain itself).
 * An allowed origin is echoed with `Access-Control-Allow-Credentials: true`; a preflight gets
 * the requested headers back and a max-age of 1728000 s (20 days), as upstream.
 */

export type CorsConfig =
  | { kind: 'all' }
  | { kind: 'origins'; exact: ReadonlySet<string>; wildcards: ReadonlySet<string> }
  | { kind: 'disabled'; wsReadCookie: boolean };

export type Headers = ReadonlyArray<readonly [string, string]>;

const PREFLIGHT_MAX_AGE = '1728000';
// Shared by the answers without an allowed origin (most of them: servers, curl): never mutated.
const NONE: Headers = [];
const VARY: Headers = [['Vary', 'Origin']];
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

export function originAllowed(cors: CorsConfig, origin: string): boolean {
  if (cors.kind === 'all') return true;
  if (cors.kind === 'disabled') return false;
  const o = origin.toLowerCase();
  if (cors.exact.has(o)) return true;
  // One label under a wildcard domain: `https://a.example.com` for `https://*.example.com`.
  const schemeEnd = o.indexOf('://');
  const dot = o.indexOf('.', schemeEnd + 3);
  return schemeEnd > 0 && dot > schemeEnd + 3 && cors.wildcards.has(o.slice(0, schemeEnd + 3) + o.slice(dot + 1));
}

/**
 * Whether a WebSocket upgrade may authenticate with its cookies: from an allowed origin (or a
 * client that sends none, which is not a browser); with CORS disabled only if configured so.
 */
export function webSocketMayReadCookie(cors: CorsConfig, origin: string | undefined): boolean {
  if (cors.kind === 'disabled') return cors.wsReadCookie;
  return origin === undefined || originAllowed(cors, origin);
}

/** Headers for an answer to a request from `origin` (empty string: no `Origin` header). */
export function corsHeaders(cors: CorsConfig, origin: string, methods: string): Headers {
  if (cors.kind === 'disabled') return NONE;
  // The answer depends on the Origin header: caches must keep one per origin.
  if (origin === '' || !originAllowed(cors, origin)) return VARY;
  return [...VARY, ['Access-Control-Allow-Origin', origin], ['Access-Control-Allow-Credentials', 'true'], ['Access-Control-Allow-Methods', methods]];
}

/** The extra headers of a preflight (`OPTIONS`) answer for an allowed origin. */
export function preflightHeaders(cors: CorsConfig, origin: string, requestedHeaders: string): Headers {
  if (origin === '' || !originAllowed(cors, origin)) return NONE;
  const maxAge = ['Access-Control-Max-Age', PREFLIGHT_MAX_AGE] as const;
  return requestedHeaders === '' ? [maxAge] : [maxAge, ['Access-Control-Allow-Headers', requestedHeaders]];
}
