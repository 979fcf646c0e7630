/**
 * The verification key of `{type, key}` in the JWT configuration, and the algorithms a token
 * may name for it. A key verifies only its own algorithm family, so a token that names another
 * (`none`, or `HS256` signed with an RSA public key as the secret) is never checked against it.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import type { JWSAlgorithm } from 'jose';

export const JWT_KEY_TYPES = ['HS256', 'HS384', 'HS512', 'RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'ES512', 'Ed25519'] as const;
export type JwtKeyType = (typeof JWT_KEY_TYPES)[number];

/** `Ed25519` tokens say `EdDSA` (RFC 8037) or, newer, `Ed25519` (RFC 9864). */
export const algorithmsOf = (type: JwtKeyType): JWSAlgorithm[] => (type === 'Ed25519' ? ['EdDSA', 'Ed25519'] : [type]);

/** What a JWK set may verify: public-key algorithms only (a set never holds a shared secret). */
export const JWK_SET_ALGORITHMS: JWSAlgorithm[] = ['RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];

const HMAC_MIN_BYTES: Partial<Record<JwtKeyType, number>> = { HS256: 32, HS384: 48, HS512: 64 };
const EC_CURVES: Partial<Record<JwtKeyType, string>> = { ES256: 'prime256v1', ES384: 'secp384r1', ES512: 'secp521r1' };
const MIN_RSA_BITS = 2048;

/** The key to verify `type` tokens with; throws an `Error` saying what is wrong with `key`. */
export function importVerificationKey(type: JwtKeyType, key: string): KeyObject | Uint8Array {
  const minBytes = HMAC_MIN_BYTES[type];
  if (minBytes !== undefined) {
    const secret = new TextEncoder().encode(key);
    if (secret.length < minBytes) throw new Error(`Key size too small; should be at least ${minBytes} characters for ${type}`);
    return secret;
  }
  let publicKey: KeyObject;
  try {
    publicKey = createPublicKey(key);
  } catch {
    throw new Error(`expected a PEM-encoded public key or X.509 certificate for ${type}`);
  }
  const kind = publicKey.asymmetricKeyType;
  const curve = EC_CURVES[type];
  if (type.startsWith('RS')) {
    if (kind !== 'rsa') throw new Error(`${type} needs an RSA key, got ${kind}`);
    const bits = publicKey.asymmetricKeyDetails?.modulusLength ?? 0;
    if (bits < MIN_RSA_BITS) throw new Error(`${type} needs an RSA key of at least ${MIN_RSA_BITS} bits, got ${bits}`);
  } else if (curve !== undefined) {
    const actual = publicKey.asymmetricKeyDetails?.namedCurve;
    if (kind !== 'ec' || actual !== curve) throw new Error(`${type} needs an EC key on curve ${curve}, got ${kind}${actual ? ` on ${actual}` : ''}`);
  } else if (kind !== 'ed25519') {
    throw new Error(`${type} needs an Ed25519 key, got ${kind}`);
  }
  return publicKey;
}
