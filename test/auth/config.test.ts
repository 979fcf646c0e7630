/** Authentication options at boot: each bad combination or value stops the engine with a clear message. */
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { load, refusal } from '../support/config.js';

const SECURED = { SERVICE_GRAPHQL_ADMIN_SECRET: 's3cret' };
const HS_KEY = 'k'.repeat(32);
const jwt = (config: unknown) => ({ ...SECURED, SERVICE_GRAPHQL_JWT_SECRET: JSON.stringify(config) });

describe('modes', () => {
  it('leaves authentication off by default', () => {
    expect(load({})).toMatchObject({ authHook: undefined, jwtSecret: undefined, unauthorizedRole: undefined });
  });

  it.each([
    ['an auth hook', { SERVICE_GRAPHQL_AUTH_HOOK: 'http://hook.local/auth' }, 'SERVICE_GRAPHQL_AUTH_HOOK / --auth-hook requires an admin secret'],
    ['a JWT secret', { SERVICE_GRAPHQL_JWT_SECRET: JSON.stringify({ type: 'HS256', key: HS_KEY }) }, 'SERVICE_GRAPHQL_JWT_SECRET / --jwt-secret requires an admin secret'],
    ['an unauthorized role', { SERVICE_GRAPHQL_UNAUTHORIZED_ROLE: 'anonymous' }, 'SERVICE_GRAPHQL_UNAUTHORIZED_ROLE / --unauthorized-role requires an admin secret'],
  ])('refuses %s without an admin secret', (_what, env, message) => {
    expect(refusal(env)).toContain(message);
  });

  it('refuses webhook and JWT mode together, and an unauthorized role with a webhook', () => {
    expect(refusal({ ...jwt({ type: 'HS256', key: HS_KEY }), SERVICE_GRAPHQL_AUTH_HOOK: 'http://hook.local/auth' })).toContain('webhook and JWT mode cannot be enabled at the same time');
    expect(refusal({ ...SECURED, SERVICE_GRAPHQL_AUTH_HOOK: 'http://hook.local/auth', SERVICE_GRAPHQL_UNAUTHORIZED_ROLE: 'anonymous' })).toContain(
      'is not allowed with SERVICE_GRAPHQL_AUTH_HOOK',
    );
  });

  it('reads the webhook from flags or variables, GET by default', () => {
    expect(load({ ...SECURED, SERVICE_GRAPHQL_AUTH_HOOK: 'http://hook.local/auth' }).authHook).toEqual({ url: 'http://hook.local/auth', mode: 'GET', timeoutMs: 10_000 });
    expect(load(SECURED, ['--auth-hook', 'https://hook.local/a', '--auth-hook-mode', 'post', '--auth-hook-timeout', '2500']).authHook).toEqual({
      url: 'https://hook.local/a',
      mode: 'POST',
      timeoutMs: 2500,
    });
  });

  it.each([
    [{ SERVICE_GRAPHQL_AUTH_HOOK: 'not a url' }, 'SERVICE_GRAPHQL_AUTH_HOOK / --auth-hook: not a valid URL'],
    [{ SERVICE_GRAPHQL_AUTH_HOOK: 'ftp://hook.local' }, 'expected an http:// or https:// URL, got "ftp:"'],
    [{ SERVICE_GRAPHQL_AUTH_HOOK: 'http://h/a', SERVICE_GRAPHQL_AUTH_HOOK_MODE: 'PUT' }, 'SERVICE_GRAPHQL_AUTH_HOOK_MODE / --auth-hook-mode: expected GET or POST, got "PUT"'],
    [{ SERVICE_GRAPHQL_AUTH_HOOK: 'http://h/a', SERVICE_GRAPHQL_AUTH_HOOK_TIMEOUT: '5s' }, 'SERVICE_GRAPHQL_AUTH_HOOK_TIMEOUT / --auth-hook-timeout: expected an integer'],
  ])('refuses a bad webhook setting %j', (env, message) => {
    expect(refusal({ ...SECURED, ...env })).toContain(message);
  });

  it('reads the unauthorized role', () => {
    expect(load({ ...SECURED, SERVICE_GRAPHQL_UNAUTHORIZED_ROLE: 'anonymous' }).unauthorizedRole).toBe('anonymous');
  });
});

describe('SERVICE_GRAPHQL_JWT_SECRET', () => {
  const rsaPem = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const ecPem = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'pem' }).toString();

  it('decodes a full configuration', () => {
    const config = load(
      jwt({
        type: 'RS256',
        key: rsaPem,
        claims_namespace_path: '$.app.claims',
        claims_format: 'stringified_json',
        audience: 'app',
        issuer: 'https://issuer',
        allowed_skew: 30,
        header: { type: 'cookie', name: 'token' },
      }),
    ).jwtSecret;
    expect(config).toEqual({
      key: { kind: 'key', type: 'RS256', key: rsaPem },
      claims: { kind: 'namespace', location: { path: { path: ['app', 'claims'], text: '$.app.claims' } }, format: 'stringified_json' },
      audience: ['app'],
      issuer: 'https://issuer',
      allowedSkewSeconds: 30,
      tokenLocation: { type: 'Cookie', name: 'token' },
    });
  });

  it('defaults to the service claims namespace, JSON claims and the Authorization header', () => {
    expect(load(jwt({ jwk_url: 'https://idp.example/jwks' })).jwtSecret).toEqual({
      key: { kind: 'jwk-url', url: 'https://idp.example/jwks' },
      claims: { kind: 'namespace', location: { key: 'https://service.io/jwt/claims' }, format: 'json' },
      allowedSkewSeconds: 0,
      tokenLocation: { type: 'Authorization' },
    });
  });

  it.each([
    ['not JSON', '{type', 'not valid JSON'],
    ['not an object', '[]', 'parsing JWTConfig failed, expected Object, but encountered Array (at $)'],
    ['neither key nor jwk_url', { type: 'HS256' }, 'key and jwk_url both cannot be empty'],
    ['both key and jwk_url', { type: 'HS256', key: HS_KEY, jwk_url: 'https://x/jwks' }, 'key, jwk_url both cannot be present'],
    ['a key without type', { key: HS_KEY }, 'key "type" not found'],
    ['an unknown type', { type: 'PS256', key: HS_KEY }, 'unexpected key type "PS256"; expected one of HS256, HS384, HS512, RS256'],
    ['a short HMAC secret', { type: 'HS512', key: 'short' }, 'Invalid JWK: Key size too small; should be at least 64 characters for HS512 (at $.key)'],
    ['a key that is not PEM', { type: 'RS256', key: 'garbage' }, 'Invalid JWK: expected a PEM-encoded public key or X.509 certificate for RS256'],
    ['an EC key for RS256', { type: 'RS256', key: ecPem }, 'Invalid JWK: RS256 needs an RSA key, got ec'],
    ['an RSA key for ES256', { type: 'ES256', key: rsaPem }, 'Invalid JWK: ES256 needs an EC key on curve prime256v1, got rsa'],
    ['an EC key for Ed25519', { type: 'Ed25519', key: ecPem }, 'Invalid JWK: Ed25519 needs an Ed25519 key, got ec'],
    ['an HMAC type with jwk_url', { type: 'HS256', jwk_url: 'https://x/jwks' }, 'type HS256 cannot be used with jwk_url'],
    ['a jwk_url that is not http', { jwk_url: 'file:///etc/jwks' }, 'expected an http:// or https:// URL, got "file:" (at $.jwk_url)'],
    ['an unknown field', { type: 'HS256', key: HS_KEY, audiance: 'x' }, 'unexpected fields in the object: audiance'],
    ['both namespace settings', { type: 'HS256', key: HS_KEY, claims_namespace: 'a', claims_namespace_path: '$.a' }, 'claims_namespace and claims_namespace_path both cannot be set'],
    ['a bad namespace path', { type: 'HS256', key: HS_KEY, claims_namespace_path: '$.a[' }, 'invalid JSON path "$.a[" (at $.claims_namespace_path)'],
    ['a bad claims_format', { type: 'HS256', key: HS_KEY, claims_format: 'xml' }, 'unexpected claims_format "xml"'],
    ['an empty audience list', { type: 'HS256', key: HS_KEY, audience: [] }, 'expected an audience or a non-empty list of audiences'],
    ['a negative skew', { type: 'HS256', key: HS_KEY, allowed_skew: -1 }, 'expected a number of seconds >= 0, got -1 (at $.allowed_skew)'],
    ['a cookie header without name', { type: 'HS256', key: HS_KEY, header: { type: 'Cookie' } }, 'key "name" not found (at $.header)'],
    ['another header type', { type: 'HS256', key: HS_KEY, header: { type: 'Query' } }, "expected 'type' is 'Authorization' or 'Cookie', got \"query\""],
    ['a claims_map without default role', { type: 'HS256', key: HS_KEY, claims_map: { 'x-service-allowed-roles': ['a'] } }, 'x-service-default-role is expected but not found (at $.claims_map)'],
    [
      'a claims_map entry that is no session variable',
      { type: 'HS256', key: HS_KEY, claims_map: { 'x-service-allowed-roles': ['a'], 'x-service-default-role': 'a', 'user-id': 'u' } },
      '"user-id" is not a session variable (x-service-*)',
    ],
    [
      'a claims_map entry given twice',
      { type: 'HS256', key: HS_KEY, claims_map: { 'x-service-allowed-roles': ['a'], 'x-service-default-role': 'a', 'X-Service-Default-Role': 'b' } },
      '"X-Service-Default-Role" is given twice',
    ],
    [
      'a claims_map path that is not a JSON path',
      { type: 'HS256', key: HS_KEY, claims_map: { 'x-service-allowed-roles': { path: '$..' }, 'x-service-default-role': 'a' } },
      'invalid JSON path "$.." (at $.claims_map["x-service-allowed-roles"].path)',
    ],
  ])('refuses %s with a message naming the place', (_what, config, message) => {
    const env = { ...SECURED, SERVICE_GRAPHQL_JWT_SECRET: typeof config === 'string' ? config : JSON.stringify(config) };
    const text = refusal(env);
    expect(text).toMatch(/^SERVICE_GRAPHQL_JWT_SECRET \/ --jwt-secret: /);
    expect(text).toContain(message);
  });
});
