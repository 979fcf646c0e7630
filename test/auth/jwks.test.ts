/** JWT mode with `jwk_url`: a real JWK endpoint, key rotation, refresh by cache headers. */
import { generateKeyPairSync } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Authenticator } from '../../src/auth/resolve.js';
import { json, startServer, type TestServer } from './http-server.js';
import { accepted, bearer, invalidJwt, jwtAuthenticator, refused, serviceClaims, sign, type SigningKey } from './tokens.js';

/** A key pair as a signing key and as the JWK its provider publishes. */
function publishedKey(kind: 'rsa' | 'ec' | 'ed25519', kid?: string): { key: SigningKey; jwk: Record<string, unknown> } {
  const pair = kind === 'rsa' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : kind === 'ec' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('ed25519');
  const { type, alg } = ({ rsa: { type: 'RS256', alg: 'RS256' }, ec: { type: 'ES256', alg: 'ES256' }, ed25519: { type: 'Ed25519', alg: 'EdDSA' } } as const)[kind];
  const jwk = { ...pair.publicKey.export({ format: 'jwk' }), use: 'sig', ...(kid ? { kid } : {}) };
  // Published keys have no configured `key`: the configuration names only the URL.
  return { key: { type, configKey: '', sign: pair.privateKey, alg }, jwk };
}

const claims = serviceClaims(['user'], 'user');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let server: TestServer | undefined;
let auth: Authenticator | undefined;

afterEach(async () => {
  auth?.close();
  await server?.close();
  auth = server = undefined;
});

async function provider(keys: Record<string, unknown>[], headers: Record<string, string> = {}): Promise<{ server: TestServer; publish(keys: Record<string, unknown>[]): void }> {
  let current = keys;
  server = await startServer(() => json(200, { keys: current }, headers));
  return { server, publish: (next) => (current = next) };
}

describe('jwk_url', () => {
  it('verifies RSA, EC and Ed25519 tokens by kid', async () => {
    const keys = [publishedKey('rsa', 'r1'), publishedKey('ec', 'e1'), publishedKey('ed25519', 'd1')];
    const { server } = await provider(keys.map((k) => k.jwk));
    auth = await jwtAuthenticator({ jwk_url: server.url });
    for (const { key, jwk } of keys) expect((await accepted(auth, bearer(await sign(key, claims, { kid: jwk.kid })))).role).toBe('user');
    expect(server.calls).toHaveLength(1);
  });

  it('tries each key of the type when the token has no kid', async () => {
    const [a, b] = [publishedKey('rsa'), publishedKey('rsa')];
    const { server } = await provider([a.jwk, b.jwk]);
    auth = await jwtAuthenticator({ jwk_url: server.url });
    await accepted(auth, bearer(await sign(b.key, claims)));
    expect(await refused(auth, bearer(await sign(publishedKey('rsa').key, claims)))).toEqual(invalidJwt('JWSError JWSInvalidSignature'));
  });

  it('fetches the set again when a token names an unknown key (rotation), at most once a second', async () => {
    const [old, next] = [publishedKey('rsa', 'k1'), publishedKey('rsa', 'k2')];
    const { server, publish } = await provider([old.jwk]);
    auth = await jwtAuthenticator({ jwk_url: server.url });
    publish([old.jwk, next.jwk]);
    const rotated = await sign(next.key, claims, { kid: 'k2' });
    // Right after the boot fetch, an unknown kid does not trigger another.
    expect(await refused(auth, bearer(rotated))).toEqual(invalidJwt('JWSError NoUsableKeys'));
    expect(server.calls).toHaveLength(1);
    await sleep(1050);
    expect((await accepted(auth, bearer(rotated))).role).toBe('user');
    expect(server.calls).toHaveLength(2);
    // A burst of made-up kids costs one fetch a second at most, shared by concurrent requests.
    await sleep(1050);
    const madeUp = await Promise.all(['x1', 'x2', 'x3', 'x4'].map(async (kid) => refused(auth!, bearer(await sign(next.key, claims, { kid })))));
    expect(madeUp.every((f) => f.message === 'Could not verify JWT: JWSError NoUsableKeys')).toBe(true);
    expect(server.calls).toHaveLength(3);
  });

  it('refreshes the set once Cache-Control max-age has passed, dropping removed keys', async () => {
    const [old, next] = [publishedKey('ec', 'k1'), publishedKey('ec', 'k2')];
    const { server, publish } = await provider([old.jwk], { 'cache-control': 'public, max-age=1' });
    auth = await jwtAuthenticator({ jwk_url: server.url });
    const oldToken = await sign(old.key, claims, { kid: 'k1' });
    await accepted(auth, bearer(oldToken));
    publish([next.jwk]);
    await sleep(1050);
    await vi.waitFor(async () => expect(await refused(auth!, bearer(oldToken))).toEqual(invalidJwt('JWSError NoUsableKeys')));
    expect(server.calls).toHaveLength(2);
    await accepted(auth, bearer(await sign(next.key, claims, { kid: 'k2' })));
  });

  it('refuses symmetric tokens: a JWK set holds public keys only', async () => {
    const { server } = await provider([publishedKey('rsa', 'r1').jwk]);
    auth = await jwtAuthenticator({ jwk_url: server.url });
    const hs = await sign({ type: 'HS256', configKey: '', sign: new TextEncoder().encode('x'.repeat(32)), alg: 'HS256' }, claims, { kid: 'r1' });
    expect(await refused(auth, bearer(hs))).toEqual(invalidJwt('JWSError NoUsableKeys'));
  });

  it('restricts the algorithms to `type` when one is given', async () => {
    const rsa = publishedKey('rsa', 'r1');
    const { server } = await provider([rsa.jwk]);
    auth = await jwtAuthenticator({ jwk_url: server.url, type: 'RS512' });
    expect(await refused(auth, bearer(await sign(rsa.key, claims, { kid: 'r1' })))).toEqual(invalidJwt('JWSError NoUsableKeys'));
  });

  it('refuses to start when the set cannot be loaded', async () => {
    server = await startServer(() => ({ status: 503 }));
    await expect(jwtAuthenticator({ jwk_url: server.url })).rejects.toThrow(`Non-2xx response (503) on fetching JWK from: ${server.url}`);
    server.answer = () => ({ status: 200, body: '{"keys": 1}' });
    await expect(jwtAuthenticator({ jwk_url: server.url })).rejects.toThrow(/^Error parsing JWK from url: .*: JSON Web Key Set malformed/);
    server.answer = () => ({ status: 200, body: 'not json' });
    await expect(jwtAuthenticator({ jwk_url: server.url })).rejects.toThrow(/^Error parsing JWK from url/);
    await expect(jwtAuthenticator({ jwk_url: 'http://127.0.0.1:1/jwks' })).rejects.toThrow(/^Error fetching JWK from http:\/\/127\.0\.0\.1:1\/jwks: connect ECONNREFUSED/);
  });
});
