/** JWT mode with a configured key: each algorithm family, the claims settings, and attacks. */
import { describe, expect, it } from 'vitest';
import { JWT_KEY_TYPES } from '../../src/auth/jwt-keys.js';
import { accepted, bearer, inSeconds, invalidJwt, jwtAuthenticator, NAMESPACE, refused, SECRET, serviceClaims, sign, signingKey } from './tokens.js';

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

describe.each(JWT_KEY_TYPES)('%s', (type) => {
  it('accepts a token signed with the configured key and refuses one signed with another key', async () => {
    const key = signingKey(type);
    const auth = await jwtAuthenticator({ type, key: key.configKey });
    const token = await sign(key, { ...serviceClaims(['user'], 'user', { 'x-service-user-id': '1' }), exp: inSeconds(60) });
    expect(await accepted(auth, bearer(token))).toMatchObject({ role: 'user', variables: { 'x-service-role': 'user', 'x-service-user-id': '1' }, isAdmin: false });
    const other = await sign(signingKey(type), serviceClaims(['user'], 'user'));
    expect(await refused(auth, bearer(other))).toEqual(invalidJwt('JWSError JWSInvalidSignature'));
    auth.close();
  });
});

describe('attacks', () => {
  const rs = signingKey('RS256');
  const hs = signingKey('HS256');
  const claims = serviceClaims(['user'], 'user');

  it('refuses alg: none, whatever the configured key', async () => {
    const unsigned = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`;
    for (const key of [rs, hs]) {
      const auth = await jwtAuthenticator({ type: key.type, key: key.configKey });
      expect(await refused(auth, bearer(unsigned))).toEqual(invalidJwt('JWSError NoUsableKeys'));
    }
  });

  it('refuses an HS256 token signed with the RSA public key as the secret', async () => {
    const auth = await jwtAuthenticator({ type: 'RS256', key: rs.configKey });
    const forged = await sign({ ...hs, alg: 'HS256', sign: new TextEncoder().encode(rs.configKey) }, claims);
    expect(await refused(auth, bearer(forged))).toEqual(invalidJwt('JWSError NoUsableKeys'));
  });

  it('refuses a token of another algorithm of the configured family', async () => {
    const auth = await jwtAuthenticator({ type: 'RS512', key: rs.configKey });
    expect(await refused(auth, bearer(await sign(rs, claims)))).toEqual(invalidJwt('JWSError NoUsableKeys'));
  });

  it('refuses a tampered payload', async () => {
    const auth = await jwtAuthenticator({ type: 'RS256', key: rs.configKey });
    const [header, , signature] = (await sign(rs, claims)).split('.');
    const tampered = `${header}.${b64(serviceClaims(['user', 'admin'], 'admin'))}.${signature}`;
    expect(await refused(auth, bearer(tampered))).toEqual(invalidJwt('JWSError JWSInvalidSignature'));
  });

  it('refuses an expired token, and one not valid yet or issued in the future', async () => {
    const auth = await jwtAuthenticator({ type: 'HS256', key: hs.configKey });
    expect(await refused(auth, bearer(await sign(hs, { ...claims, exp: inSeconds(-5) })))).toEqual(invalidJwt('JWTExpired'));
    expect(await refused(auth, bearer(await sign(hs, { ...claims, nbf: inSeconds(30) })))).toEqual(invalidJwt('JWTNotYetValid'));
    expect(await refused(auth, bearer(await sign(hs, { ...claims, iat: inSeconds(30) })))).toEqual(invalidJwt('JWTIssuedAtFuture'));
  });

  it('refuses a role outside the allowed roles', async () => {
    const auth = await jwtAuthenticator({ type: 'HS256', key: hs.configKey });
    const token = await sign(hs, serviceClaims(['user', 'editor'], 'user'));
    const denied = { status: 400, code: 'access-denied', message: 'Your requested role is not in allowed roles' };
    expect(await refused(auth, { ...bearer(token), 'x-service-role': 'admin' })).toEqual(denied);
    expect(await refused(auth, bearer(await sign(hs, serviceClaims(['user'], 'admin'))))).toEqual(denied);
  });

  it('refuses a token that is not a compact JWS', async () => {
    const auth = await jwtAuthenticator({ type: 'HS256', key: hs.configKey });
    expect(await refused(auth, bearer('abc.def'))).toMatchObject({ status: 400, code: 'invalid-jwt', message: expect.stringMatching(/^Could not verify JWT: JWSError \(CompactDecodeError/) });
  });
});

describe('time checks', () => {
  const hs = signingKey('HS512');
  const claims = serviceClaims(['user'], 'user');

  it('tolerates allowed_skew seconds on exp, nbf and iat', async () => {
    const auth = await jwtAuthenticator({ type: 'HS512', key: hs.configKey, allowed_skew: 60 });
    await accepted(auth, bearer(await sign(hs, { ...claims, exp: inSeconds(-30), nbf: inSeconds(30), iat: inSeconds(30) })));
    expect(await refused(auth, bearer(await sign(hs, { ...claims, exp: inSeconds(-90) })))).toEqual(invalidJwt('JWTExpired'));
  });

  it('gives the session the expiry of the token', async () => {
    const auth = await jwtAuthenticator({ type: 'HS512', key: hs.configKey });
    const exp = inSeconds(120);
    expect((await accepted(auth, bearer(await sign(hs, { ...claims, exp })))).expiresAt).toBe(exp * 1000);
    expect((await accepted(auth, bearer(await sign(hs, claims)))).expiresAt).toBeUndefined();
  });

  it('refuses registered claims of the wrong type', async () => {
    const auth = await jwtAuthenticator({ type: 'HS512', key: hs.configKey });
    expect(await refused(auth, bearer(await sign(hs, { ...claims, exp: 'tomorrow' as unknown as number })))).toEqual(
      invalidJwt('JWTClaimsSetDecodeError "exp must be a NumericDate"'),
    );
  });
});

describe('audience and issuer', () => {
  const hs = signingKey('HS256');
  const claims = serviceClaims(['user'], 'user');

  it('needs one of the configured audiences in aud', async () => {
    const auth = await jwtAuthenticator({ type: 'HS256', key: hs.configKey, audience: ['app-1', 'app-2'] });
    await accepted(auth, bearer(await sign(hs, { ...claims, aud: 'app-2' })));
    await accepted(auth, bearer(await sign(hs, { ...claims, aud: ['other', 'app-1'] })));
    expect(await refused(auth, bearer(await sign(hs, { ...claims, aud: 'other' })))).toEqual(invalidJwt('JWTNotInAudience'));
    expect(await refused(auth, bearer(await sign(hs, claims)))).toEqual(invalidJwt('JWTNotInAudience'));
  });

  it('refuses another issuer; a token without iss passes, as upstream documents', async () => {
    const auth = await jwtAuthenticator({ type: 'HS256', key: hs.configKey, issuer: 'https://issuer.example' });
    await accepted(auth, bearer(await sign(hs, { ...claims, iss: 'https://issuer.example' })));
    expect(await refused(auth, bearer(await sign(hs, { ...claims, iss: 'https://evil.example' })))).toEqual(invalidJwt('JWTNotInIssuer'));
    await accepted(auth, bearer(await sign(hs, claims)));
  });
});

describe('claims', () => {
  const hs = signingKey('HS384');

  it('runs as X-Service-Role when allowed, else the default role; variables come from the token only', async () => {
    const auth = await jwtAuthenticator({ type: 'HS384', key: hs.configKey });
    const token = await sign(hs, { [NAMESPACE]: { 'X-Service-Allowed-Roles': ['user', 'editor'], 'X-Service-Default-Role': 'user', 'X-Service-User-Id': '9', other: 'x' } });
    expect(await accepted(auth, { ...bearer(token), 'x-service-role': 'editor', 'x-service-user-id': '1' })).toEqual({
      role: 'editor',
      variables: { 'x-service-role': 'editor', 'x-service-user-id': '9' },
      isAdmin: false,
      useBackendOnlyPermissions: false,
    });
    expect((await accepted(auth, bearer(token))).role).toBe('user');
  });

  it('reads a custom claims_namespace and a claims_namespace_path', async () => {
    const inKey = await jwtAuthenticator({ type: 'HS384', key: hs.configKey, claims_namespace: 'https://my.app/claims' });
    await accepted(inKey, bearer(await sign(hs, { 'https://my.app/claims': serviceClaims(['user'], 'user')[NAMESPACE] })));
    expect(await refused(inKey, bearer(await sign(hs, serviceClaims(['user'], 'user'))))).toEqual({
      status: 400,
      code: 'jwt-invalid-claims',
      message: "claims key: 'https://my.app/claims' not found",
    });
    const atPath = await jwtAuthenticator({ type: 'HS384', key: hs.configKey, claims_namespace_path: '$.service.claims' });
    await accepted(atPath, bearer(await sign(hs, { service: { claims: serviceClaims(['user'], 'user')[NAMESPACE] } })));
    expect(await refused(atPath, bearer(await sign(hs, { service: {} })))).toMatchObject({
      code: 'jwt-invalid-claims',
      message: "claims not found at claims_namespace_path: '$.service.claims'",
    });
    const atRoot = await jwtAuthenticator({ type: 'HS384', key: hs.configKey, claims_namespace_path: '$' });
    expect((await accepted(atRoot, bearer(await sign(hs, { 'x-service-allowed-roles': ['r'], 'x-service-default-role': 'r', sub: 'u' })))).role).toBe('r');
  });

  it('reads stringified claims with claims_format stringified_json', async () => {
    const auth = await jwtAuthenticator({ type: 'HS384', key: hs.configKey, claims_format: 'stringified_json' });
    const inner = serviceClaims(['user'], 'user', { 'x-service-user-id': '3' })[NAMESPACE];
    expect((await accepted(auth, bearer(await sign(hs, { [NAMESPACE]: JSON.stringify(inner) })))).variables['x-service-user-id']).toBe('3');
    expect(await refused(auth, bearer(await sign(hs, { [NAMESPACE]: inner })))).toMatchObject({
      code: 'jwt-invalid-claims',
      message: 'expecting a string when claims_format is stringified_json',
    });
    expect(await refused(auth, bearer(await sign(hs, { [NAMESPACE]: '{oops' })))).toMatchObject({
      code: 'jwt-invalid-claims',
      message: `expecting stringified json at: 'claims_namespace ${NAMESPACE}', but found: {oops`,
    });
  });

  it('maps claims with claims_map: paths, defaults and literals', async () => {
    const auth = await jwtAuthenticator({
      type: 'HS384',
      key: hs.configKey,
      claims_map: {
        'x-service-allowed-roles': { path: '$.roles.all' },
        'x-service-default-role': { path: '$.roles.all[0]' },
        'X-Service-User-Id': { path: '$.user.id', default: 'anonymous-id' },
        'x-service-org': 'acme',
        'x-service-subject': { path: '$.sub' },
      },
    });
    const s = await accepted(auth, bearer(await sign(hs, { sub: 'u1', roles: { all: ['reader', 'writer'] }, user: { id: 'u-17' } })));
    expect(s.variables).toEqual({ 'x-service-role': 'reader', 'x-service-user-id': 'u-17', 'x-service-org': 'acme', 'x-service-subject': 'u1' });
    expect((await accepted(auth, bearer(await sign(hs, { sub: 'u1', roles: { all: ['reader'] } })))).variables['x-service-user-id']).toBe('anonymous-id');
    expect(await refused(auth, bearer(await sign(hs, { roles: { all: ['reader'] } })))).toEqual({
      status: 400,
      code: 'jwt-invalid-claims',
      message: 'JWT claim from claims_map, x-service-subject not found',
    });
    expect(await refused(auth, bearer(await sign(hs, { sub: 'u1' })))).toEqual({
      status: 400,
      code: 'jwt-missing-role-claims',
      message: 'JWT claim does not contain x-service-allowed-roles',
    });
  });

  it('refuses missing or malformed role claims and non-string variables', async () => {
    const auth = await jwtAuthenticator({ type: 'HS384', key: hs.configKey });
    expect(await refused(auth, bearer(await sign(hs, { [NAMESPACE]: { 'x-service-default-role': 'user' } })))).toEqual({
      status: 400,
      code: 'jwt-missing-role-claims',
      message: 'JWT claim does not contain x-service-allowed-roles',
    });
    expect(await refused(auth, bearer(await sign(hs, { [NAMESPACE]: { 'x-service-allowed-roles': 'user', 'x-service-default-role': 'user' } })))).toMatchObject({
      code: 'jwt-invalid-claims',
      message: 'invalid x-service-allowed-roles; should be a list of roles',
    });
    expect(await refused(auth, bearer(await sign(hs, serviceClaims(['user'], 'user', { 'x-service-user-id': 5 }))))).toEqual({
      status: 400,
      code: 'jwt-invalid-claims',
      message: 'x-service-* claims: the value of "x-service-user-id" must be a string',
    });
  });
});

describe('where the token is', () => {
  const hs = signingKey('HS256');
  const claims = serviceClaims(['user'], 'user');

  it('reads a named cookie with header {type: Cookie}, ignoring Authorization', async () => {
    const auth = await jwtAuthenticator({ type: 'HS256', key: hs.configKey, header: { type: 'Cookie', name: 'jwt' } });
    const token = await sign(hs, claims);
    expect((await accepted(auth, { cookie: `theme=dark; jwt=${token}; other=1` })).role).toBe('user');
    expect(await refused(auth, bearer(token))).toEqual({
      status: 400,
      code: 'invalid-headers',
      message: "Missing 'Authorization' or 'Cookie' header in JWT authentication mode",
    });
  });

  it('runs a request without a token as the unauthorized role, whatever X-Service-Role says', async () => {
    const auth = await jwtAuthenticator({ type: 'HS256', key: hs.configKey, header: { type: 'Cookie', name: 'jwt' } }, 'anonymous');
    expect(await accepted(auth, { cookie: 'theme=dark', 'x-service-role': 'admin', 'x-service-user-id': '1' })).toEqual({
      role: 'anonymous',
      variables: { 'x-service-role': 'anonymous', 'x-service-user-id': '1' },
      isAdmin: false,
      useBackendOnlyPermissions: false,
    });
  });

  it.each(['Basic dXNlcjpwYXNz', 'Bearer', 'bearer abc', 'Bearer a b'])('refuses the malformed Authorization header "%s"', async (value) => {
    const auth = await jwtAuthenticator({ type: 'HS256', key: hs.configKey }, 'anonymous');
    expect(await refused(auth, { authorization: value })).toEqual({ status: 400, code: 'invalid-headers', message: 'Malformed Authorization header' });
  });

  it('lets the admin secret through without a token', async () => {
    const auth = await jwtAuthenticator({ type: 'HS256', key: hs.configKey });
    expect(await accepted(auth, { 'x-service-admin-secret': SECRET, 'x-service-role': 'user' })).toMatchObject({ role: 'user', isAdmin: true });
  });

  it('authenticates a WebSocket connection_init, with the expiry of the token', async () => {
    const auth = await jwtAuthenticator({ type: 'HS256', key: hs.configKey });
    const exp = inSeconds(300);
    const token = await sign(hs, { ...claims, exp });
    expect(await auth.authenticateWebSocket({ headers: { Authorization: `Bearer ${token}` } })).toMatchObject({ role: 'user', expiresAt: exp * 1000 });
    expect(await auth.authenticateWebSocket({ Authorization: `Bearer ${token}` })).toMatchObject({ role: 'user' });
    expect(await auth.authenticateWebSocket({})).toMatchObject({ status: 400, code: 'invalid-headers' });
  });
});
