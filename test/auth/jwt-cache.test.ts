/** Verified tokens are remembered: the signature is checked once, the time claims every time. */
import { describe, expect, it } from 'vitest';
import { importVerificationKey } from '../../src/auth/jwt-keys.js';
import { VerifiedTokens, verifyToken, type TokenKeys } from '../../src/auth/jwt-verify.js';
import { inSeconds, sign, signingKey } from './tokens.js';

const key = signingKey('RS256');
const checks = { allowedSkewSeconds: 0 };

function countingKeys(generation?: () => object | null): TokenKeys & { calls: number } {
  const verificationKey = importVerificationKey('RS256', key.configKey);
  const keys = { algorithms: ['RS256' as const], calls: 0, key: async () => (keys.calls++, verificationKey as never), generation };
  return keys;
}

describe('VerifiedTokens', () => {
  it('checks a token signature once, its expiry on every use', async () => {
    const keys = countingKeys();
    const cache = new VerifiedTokens(10);
    const token = await sign(key, { sub: 'a', exp: inSeconds(60) });
    await verifyToken(token, keys, checks, Date.now(), cache);
    await verifyToken(token, keys, checks, Date.now(), cache);
    expect(keys.calls).toBe(1);
    await expect(verifyToken(token, keys, checks, Date.now() + 120_000, cache)).rejects.toThrow(/JWTExpired/);
  });

  it('forgets what a rotated key set verified, and never remembers a refusal', async () => {
    let set = {};
    const keys = countingKeys(() => set);
    const cache = new VerifiedTokens(10);
    const token = await sign(key, { sub: 'a' });
    await verifyToken(token, keys, checks, Date.now(), cache);
    set = {};
    await verifyToken(token, keys, checks, Date.now(), cache);
    expect(keys.calls).toBe(2);
    const tampered = token.slice(0, -4) + 'AAAA';
    await expect(verifyToken(tampered, keys, checks, Date.now(), cache)).rejects.toThrow();
    await expect(verifyToken(tampered, keys, checks, Date.now(), cache)).rejects.toThrow();
    expect(keys.calls).toBe(4);
  });
});
