/**
 * Cross-origin requests, with the well-known engine's conventions (`--cors-domain`,
 * `--disable-cors`, `--ws-read-cookie`): `*` or a list of origins (scheme, host and port
 * significant; `https://*.example.com` allows any one-label subdomain, not the domain itself).
 * An allowed origin is echoed with `Access-Control-Allow-Credentials: true`; a preflight gets
 * the requested headers back and a max-age of 1728000 s (20 days), as upstream. The origins are
 * configured by `config/cors.ts`.
 */
import type { CorsConfig } from '../config/cors.js';

export type Headers = ReadonlyArray<readonly [string, string]>;

const PREFLIGHT_MAX_AGE = '1728000';
// Shared by the answers without an allowed origin (most of them: servers, curl): never mutated.
const NONE: Headers = [];
const VARY: Headers = [['Vary', 'Origin']];

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
