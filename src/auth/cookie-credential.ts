/**
 * Whether a request would be authenticated by a cookie, which a browser attaches to requests
 * from any site: then the HTTP route asks for a JSON content type (a cross-site page cannot send
 * one without a CORS preflight), and a WebSocket from a foreign origin loses its cookie.
 * Decided from the headers alone, before any webhook call or token check.
 */
import type { AuthConfig } from './auth-config.js';
import { cookieValue } from './jwt.js';
import { ACCESS_KEY_HEADER, ADMIN_SECRET_HEADER } from './session.js';

export type CookieCredentialCheck = (headers: Record<string, string>) => boolean;

export function cookieCredentialCheck(config: Pick<AuthConfig, 'adminSecrets' | 'authHook' | 'jwtSecret'>): CookieCredentialCheck {
  // Without an admin secret every request is admin: no credential at all.
  if (config.adminSecrets.length === 0) return () => false;
  const headerCredential = (h: Record<string, string>) => h[ADMIN_SECRET_HEADER] !== undefined || h[ACCESS_KEY_HEADER] !== undefined;
  // A webhook may read any header: a Cookie is its credential when there is no Authorization.
  if (config.authHook) return (h) => h.cookie !== undefined && h.authorization === undefined && !headerCredential(h);
  const location = config.jwtSecret?.tokenLocation;
  if (location?.type === 'Cookie') return (h) => h.cookie !== undefined && !headerCredential(h) && cookieValue(h.cookie, location.name) !== undefined;
  return () => false;
}
