/** Keys and tokens for the JWT tests, all made here (node:crypto keys, jose signing). */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { SignJWT, type JWTPayload } from 'jose';
import type { JwtKeyType } from '../../src/auth/jwt-keys.js';
import { decodeJwtConfig } from '../../src/auth/jwt-config.js';
import { isAuthFailure, type AuthFailure } from '../../src/auth/failure.js';
import { createAuthenticator, type Authenticator } from '../../src/auth/resolve.js';
import type { Session } from '../../src/auth/session.js';

export const SECRET = 's3cret';
export const NAMESPACE = 'https://service.io/jwt/claims';

export interface SigningKey {
  type: JwtKeyType;
  /** What the JWT configuration's `key` holds: the shared secret or the public key PEM. */
  configKey: string;
  sign: KeyObject | Uint8Array;
  alg: string;
}

const hmacSecret = (bytes: number) => 'k'.repeat(bytes);

/** A fresh key of `type`; asymmetric keys come from generateKeyPairSync. */
export function signingKey(type: JwtKeyType): SigningKey {
  if (type.startsWith('HS')) {
    const secret = hmacSecret(Number(type.slice(2)) / 8) + Math.random().toString(36);
    return { type, configKey: secret, sign: new TextEncoder().encode(secret), alg: type };
  }
  const pair =
    type === 'Ed25519'
      ? generateKeyPairSync('ed25519')
      : type.startsWith('RS')
        ? generateKeyPairSync('rsa', { modulusLength: 2048 })
        : generateKeyPairSync('ec', { namedCurve: { ES256: 'P-256', ES384: 'P-384', ES512: 'P-521' }[type as 'ES256'] });
  const configKey = pair.publicKey.export({ type: 'spki', format: 'pem' }).toString();
  return { type, configKey, sign: pair.privateKey, alg: type === 'Ed25519' ? 'EdDSA' : type };
}

export function serviceClaims(allowed: string[], defaultRole: string, extra: Record<string, unknown> = {}) {
  return { [NAMESPACE]: { 'x-service-allowed-roles': allowed, 'x-service-default-role': defaultRole, ...extra } };
}

export async function sign(key: SigningKey, payload: JWTPayload, header: Record<string, unknown> = {}): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ alg: key.alg, ...header }).sign(key.sign);
}

const nowSeconds = () => Math.floor(Date.now() / 1000);
export const inSeconds = (s: number) => nowSeconds() + s;

/** A JWT-mode authenticator from the JSON configuration object. */
export function jwtAuthenticator(config: Record<string, unknown>, unauthorizedRole?: string): Promise<Authenticator> {
  return createAuthenticator({ adminSecrets: [SECRET], authHook: undefined, jwtSecret: decodeJwtConfig(JSON.stringify(config)), unauthorizedRole });
}

export async function accepted(auth: Authenticator, headers: Record<string, string>): Promise<Session> {
  const r = await auth.authenticate({ headers, body: null });
  if (isAuthFailure(r)) throw new Error(`refused: ${JSON.stringify(r)}`);
  return r;
}

export async function refused(auth: Authenticator, headers: Record<string, string>): Promise<AuthFailure> {
  const r = await auth.authenticate({ headers, body: null });
  if (!isAuthFailure(r)) throw new Error(`accepted: ${JSON.stringify(r)}`);
  return r;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export const invalidJwt = (reason: string): AuthFailure => ({ status: 400, code: 'invalid-jwt', message: `Could not verify JWT: ${reason}` });
