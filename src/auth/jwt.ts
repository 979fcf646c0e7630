/**
 * JWT mode: find the token (a Bearer `Authorization` header or a named cookie),
 * verify it, and run the request as `X-Service-Role` if that is among the token's allowed roles,
 * else as its default role. Session variables come from the token only, never from headers.
 * Without a token the request runs as the unauthorized role when one is configured.
 */
import { AuthError } from './failure.js';
import type { JwtConfig, JwtTokenLocation } from './jwt-config.js';
import { readServiceClaims } from './jwt-claims.js';
import { VerifiedTokens, verifyToken, type TokenKeys } from './jwt-verify.js';
import { makeSession, requestedRole, unauthorizedSession, type Session } from './session.js';

export type JwtAuthenticate = (headers: Record<string, string>) => Promise<Session>;

/** Distinct tokens whose verification is remembered. */
const VERIFIED_TOKENS = 10_000;

export function jwtAuthenticator(config: JwtConfig, keys: TokenKeys, unauthorizedRole: string | undefined): JwtAuthenticate {
  const verified = new VerifiedTokens(VERIFIED_TOKENS);
  return async (headers) => {
    const token = findToken(headers, config.tokenLocation);
    if (token === undefined) {
      if (unauthorizedRole !== undefined) return unauthorizedSession(unauthorizedRole, headers);
      throw new AuthError(400, 'invalid-headers', "Missing 'Authorization' or 'Cookie' header in JWT authentication mode");
    }
    const checked = await verifyToken(token, keys, config, Date.now(), verified);
    const claims = readServiceClaims(checked.payload, config.claims);
    const role = requestedRole(headers) ?? claims.defaultRole;
    if (!claims.allowedRoles.includes(role)) throw new AuthError(400, 'access-denied', 'Your requested role is not in allowed roles');
    const session = makeSession(role, claims.variables, { isAdmin: false, useBackendOnlyPermissions: false });
    if (checked.expiresAt !== undefined) session.expiresAt = checked.expiresAt;
    return session;
  };
}

/** The token, or undefined when the configured place holds none (an unauthenticated request). */
function findToken(headers: Record<string, string>, location: JwtTokenLocation): string | undefined {
  if (location.type === 'Cookie') return headers.cookie === undefined ? undefined : cookieValue(headers.cookie, location.name);
  const authorization = headers.authorization;
  if (authorization === undefined) return undefined;
  // Exactly two words, the scheme spelt `Bearer`, as upstream.
  const words = authorization.split(/\s+/).filter((w) => w !== '');
  if (words.length !== 2 || words[0] !== 'Bearer') throw new AuthError(400, 'invalid-headers', 'Malformed Authorization header');
  return words[1];
}

/** The value of cookie `name` in a `Cookie` header (`a=1; b="2"`). */
export function cookieValue(header: string, name: string): string | undefined {
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0 || pair.slice(0, eq).trim() !== name) continue;
    return pair.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
  }
  return undefined;
}
