/**
 * Checks a compact JWT: the signature, with only the configured key's algorithms allowed (so
 * `alg: none` and algorithm confusion never reach a key), then the registered claims `exp`,
 * `nbf`, `iat` (each with `allowed_skew`), `iss` and `aud`. Refusals read as upstream's:
 * `Could not verify JWT: JWTExpired`, `... JWSError JWSInvalidSignature`, ...
 */
import { compactVerify, errors, type CompactVerifyGetKey, type JWSAlgorithm, type KeyInput, type VerifyOptions } from 'jose';
import { isObject, type JsonObject } from '../util/decode.js';
import { invalidJwt } from './failure.js';
import { ExpiringCache } from './expiring-cache.js';

export interface TokenKeys {
  algorithms: JWSAlgorithm[];
  key: KeyInput | CompactVerifyGetKey;
  /** For keys that rotate (a JWK set): the set now in use, or null when it is stale. Fixed keys have none. */
  generation?: () => object | null;
}

export interface TokenChecks {
  audience?: string[];
  issuer?: string;
  allowedSkewSeconds: number;
}

export interface VerifiedToken {
  payload: JsonObject;
  /** `exp` in milliseconds since the epoch. */
  expiresAt?: number;
}

export async function verifyToken(token: string, keys: TokenKeys, checks: TokenChecks, now: number, cache?: VerifiedTokens): Promise<VerifiedToken> {
  const generation = keys.generation ? keys.generation() : FIXED_KEYS;
  const payload = (generation && cache?.get(token, now, generation)) || decodePayload(await verifySignature(token, keys));
  // The time claims are checked on every use, cached or not.
  const exp = checkRegisteredClaims(payload, checks, now / 1000);
  if (generation) cache?.remember(token, payload, now, exp, generation);
  return exp === undefined ? { payload } : { payload, expiresAt: exp * 1000 };
}

/** How long a verified signature is trusted without checking it again. */
const SIGNATURE_TRUST_MS = 5 * 60_000;
const FIXED_KEYS = {};

/**
 * Tokens whose signature was verified, by their exact text: a client sends the same token
 * with every request, and verifying an RS/ES signature costs far more than the rest of a
 * small query. Bounded (least recently used out) and each entry kept at most until the
 * token's `exp` and SIGNATURE_TRUST_MS.
 */
export class VerifiedTokens {
  private readonly entries: ExpiringCache<{ payload: JsonObject; generation: object }>;

  constructor(capacity: number) {
    this.entries = new ExpiringCache(capacity);
  }

  /** The payload of a token verified with the keys of `generation` (a rotated key set misses). */
  get(token: string, now: number, generation: object): JsonObject | undefined {
    const entry = this.entries.get(token, now)?.value;
    return entry && entry.generation === generation ? entry.payload : undefined;
  }

  remember(token: string, payload: JsonObject, now: number, expSeconds: number | undefined, generation: object): void {
    if (this.get(token, now, generation)) return;
    const until = Math.min(now + SIGNATURE_TRUST_MS, expSeconds === undefined ? Infinity : expSeconds * 1000);
    this.entries.set(token, { payload, generation }, until);
  }
}

async function verifySignature(token: string, keys: TokenKeys): Promise<Uint8Array> {
  const options: VerifyOptions = { algorithms: keys.algorithms };
  try {
    return (await compactVerify(token, keys.key, options)).payload;
  } catch (e) {
    if (!(e instanceof errors.JWKSMultipleMatchingKeys)) throw signatureRefusal(e);
    // A token without `kid` against a set holding several keys of its type: try each.
    for await (const key of e) {
      try {
        return (await compactVerify(token, key, options)).payload;
      } catch (inner) {
        if (!(inner instanceof errors.JWSSignatureVerificationFailed)) throw signatureRefusal(inner);
      }
    }
    throw invalidJwt('JWSError JWSInvalidSignature');
  }
}

function signatureRefusal(e: unknown): Error {
  if (e instanceof errors.JWSSignatureVerificationFailed) return invalidJwt('JWSError JWSInvalidSignature');
  if (e instanceof errors.JWSInvalid) return invalidJwt(`JWSError (CompactDecodeError ${e.message})`);
  // A disallowed or unsupported `alg`, no key for it, an unusable key: nothing may verify it.
  if (e instanceof errors.JOSEError) return invalidJwt('JWSError NoUsableKeys');
  return e instanceof Error ? e : new Error(String(e));
}

function decodePayload(bytes: Uint8Array): JsonObject {
  let payload: unknown;
  try {
    payload = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw invalidJwt('JWTClaimsSetDecodeError "the payload is not JSON"');
  }
  if (!isObject(payload)) throw invalidJwt('JWTClaimsSetDecodeError "the payload is not a JSON object"');
  return payload;
}

/** Returns `exp` (seconds) when present. */
function checkRegisteredClaims(payload: JsonObject, checks: TokenChecks, nowSeconds: number): number | undefined {
  const skew = checks.allowedSkewSeconds;
  const exp = numericDate(payload, 'exp');
  const nbf = numericDate(payload, 'nbf');
  const iat = numericDate(payload, 'iat');
  // RFC 7519 4.1.4: not accepted on or after `exp`.
  if (exp !== undefined && nowSeconds >= exp + skew) throw invalidJwt('JWTExpired');
  if (nbf !== undefined && nowSeconds + skew < nbf) throw invalidJwt('JWTNotYetValid');
  if (iat !== undefined && iat > nowSeconds + skew) throw invalidJwt('JWTIssuedAtFuture');
  const iss = payload.iss;
  if (iss !== undefined && typeof iss !== 'string') throw invalidJwt('JWTClaimsSetDecodeError "iss must be a string"');
  // As upstream documents, a token without `iss` passes a configured issuer.
  if (checks.issuer !== undefined && iss !== undefined && iss !== checks.issuer) throw invalidJwt('JWTNotInIssuer');
  if (checks.audience !== undefined) {
    const expected = checks.audience;
    if (!audienceOf(payload).some((a) => expected.includes(a))) throw invalidJwt('JWTNotInAudience');
  }
  return exp;
}

function numericDate(payload: JsonObject, claim: string): number | undefined {
  const v = payload[claim];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw invalidJwt(`JWTClaimsSetDecodeError "${claim} must be a NumericDate"`);
  return v;
}

function audienceOf(payload: JsonObject): string[] {
  const aud = payload.aud;
  if (aud === undefined) return [];
  if (typeof aud === 'string') return [aud];
  if (Array.isArray(aud) && aud.every((a) => typeof a === 'string')) return aud as string[];
  throw invalidJwt('JWTClaimsSetDecodeError "aud must be a string or a list of strings"');
}
