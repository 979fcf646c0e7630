/**
 * Who a request is (spec "Authentication"): the one entry point of the `/v1/graphql`
 * HTTP and WebSocket routes. With no admin secret configured every request is admin, acting as
 * any role through `X-Service-Role`. With one, the right `X-Service-Admin-Secret` gives the
 * same (compared in constant time against every configured secret), a wrong one is refused,
 * and without one the configured mode decides: the webhook, a JWT, or the unauthorized role.
 */
import { makeSecretCheck } from './admin-secret.js';
import { log } from '../log.js';
import { connectionInitHeaders } from './connection-init.js';
import { cookieCredentialCheck } from './cookie-credential.js';
import { AuthError, internalError, type AuthFailure } from './failure.js';
import { HttpClient } from '../outgoing/http-client.js';
import { TlsAllowlist } from '../outgoing/tls-allowlist.js';
import { RemoteJwkSet } from './jwk-set.js';
import type { JwtKeySource } from './jwt-config.js';
import type { AuthConfig } from './auth-config.js';
import { algorithmsOf, importVerificationKey, JWK_SET_ALGORITHMS } from './jwt-keys.js';
import type { TokenKeys } from './jwt-verify.js';
import { jwtAuthenticator } from './jwt.js';
import {
  ACCESS_KEY_HEADER,
  ADMIN_ROLE,
  ADMIN_SECRET_HEADER,
  backendOnlyRequested,
  makeSession,
  requestedRole,
  sessionVariables,
  unauthorizedSession,
  type Session,
} from './session.js';
import { webhookAuthenticator } from './webhook.js';
import type { Context } from '../observability/traces/tracer.js';

export interface AuthRequest {
  /** Lower-case names. */
  headers: Record<string, string>;
  /** The client's raw body, shown to a POST-mode webhook; null on WebSocket. */
  body: Uint8Array | null;
  /** The request's trace context, when traced: a webhook call is a client span in it. */
  trace?: Context;
  /** The request's id (`x-request-id`), for the lines it logs. */
  requestId?: string;
}

export interface Authenticator {
  /** Synchronous when nothing is called (the admin secret, a JWT with its keys at hand): no promise on the hot path. */
  authenticate(req: AuthRequest): Session | AuthFailure | Promise<Session | AuthFailure>;
  /** At `connection_init`; `upgradeHeaders` are those of the HTTP upgrade request. */
  authenticateWebSocket(connectionInitPayload: unknown, upgradeHeaders?: Record<string, string>): Promise<Session | AuthFailure>;
  /** Whether the request's credential would be a cookie (`cookie-credential.ts`). */
  usesCookie(headers: Record<string, string>): boolean;
  /** Closes the pooled connections to the webhook or JWK provider. */
  close(): void;
}


/** How a request without the admin secret is authenticated. */
type CredentialCheck = (req: AuthRequest) => Promise<Session>;

const WEBHOOK_MAX_ANSWER_BYTES = 1 << 20;
const JWK_FETCH_TIMEOUT_MS = 10_000;
const JWK_SET_MAX_BYTES = 1 << 20;

/**
 * Rejects when a `jwk_url` cannot be loaded: the engine must not start without its keys.
 * Calls to the webhook or the JWK URL follow `tlsAllowlist` (the metadata's, kept current by the caller; none: every
 * certificate is verified).
 */
export async function createAuthenticator(config: AuthConfig, tlsAllowlist = new TlsAllowlist()): Promise<Authenticator> {
  const { check, client } = await credentialCheck(config, tlsAllowlist);
  const secured = config.adminSecrets.length > 0;
  const secretMatches = makeSecretCheck(config.adminSecrets);

  const resolve = (req: AuthRequest): Promise<Session> | Session => {
    if (!secured) return trustedSession(req.headers);
    const secret = req.headers[ADMIN_SECRET_HEADER] ?? req.headers[ACCESS_KEY_HEADER];
    if (secret === undefined) return check(req);
    if (!secretMatches(secret)) throw new AuthError(401, 'access-denied', `invalid ${ADMIN_SECRET_HEADER}/${ACCESS_KEY_HEADER}`);
    return trustedSession(req.headers);
  };
  const settle = (request: () => AuthRequest): Session | AuthFailure | Promise<Session | AuthFailure> => {
    try {
      const session = resolve(request());
      return session instanceof Promise ? session.catch(refusal) : session;
    } catch (e) {
      return refusal(e);
    }
  };
  return {
    authenticate: (req) => settle(() => req),
    authenticateWebSocket: async (payload, upgradeHeaders = {}) => settle(() => ({ headers: connectionInitHeaders(payload, upgradeHeaders), body: null })),
    usesCookie: cookieCredentialCheck(config),
    close: () => client?.close(),
  };
}

/** Admin by secret or by configuration: any role, variables from the headers. */
function trustedSession(headers: Record<string, string>): Session {
  const variables = sessionVariables(headers);
  return makeSession(requestedRole(variables) ?? ADMIN_ROLE, variables, { isAdmin: true, useBackendOnlyPermissions: backendOnlyRequested(variables) });
}

function refusal(e: unknown): AuthFailure {
  if (e instanceof AuthError) return e.failure();
  // A bug, not the caller's fault: logged, and never a stack trace in the answer.
  log.error('authentication failed unexpectedly', { error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  return internalError('authentication failed unexpectedly').failure();
}

async function credentialCheck(config: AuthConfig, tlsAllowlist: TlsAllowlist): Promise<{ check: CredentialCheck; client?: HttpClient }> {
  if (config.authHook) {
    const client = new HttpClient(config.authHook.timeoutMs, WEBHOOK_MAX_ANSWER_BYTES, tlsAllowlist);
    const hook = webhookAuthenticator(config.authHook, client);
    return { check: (req) => hook(req.headers, req.body, req.trace, req.requestId), client };
  }
  if (config.jwtSecret) {
    const { keys, client } = await tokenKeys(config.jwtSecret.key, tlsAllowlist);
    const jwt = jwtAuthenticator(config.jwtSecret, keys, config.unauthorizedRole);
    return { check: (req) => jwt(req.headers), client };
  }
  const role = config.unauthorizedRole;
  return {
    check: async (req) => {
      if (role === undefined) throw new AuthError(401, 'access-denied', `${ADMIN_SECRET_HEADER}/${ACCESS_KEY_HEADER} required, but not found`);
      return unauthorizedSession(role, req.headers);
    },
  };
}

async function tokenKeys(source: JwtKeySource, tlsAllowlist: TlsAllowlist): Promise<{ keys: TokenKeys; client?: HttpClient }> {
  if (source.kind === 'key') return { keys: { algorithms: algorithmsOf(source.type), key: importVerificationKey(source.type, source.key) } };
  const client = new HttpClient(JWK_FETCH_TIMEOUT_MS, JWK_SET_MAX_BYTES, tlsAllowlist);
  try {
    const set = await RemoteJwkSet.load(source.url, client);
    return { keys: { algorithms: source.type ? algorithmsOf(source.type) : JWK_SET_ALGORITHMS, key: set.resolve, generation: set.generation }, client };
  } catch (e) {
    client.close();
    throw e;
  }
}
