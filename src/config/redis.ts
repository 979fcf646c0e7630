/**
 * Where the shared stores live (the well-known engine's settings): `SERVICE_GRAPHQL_REDIS_URL`
 * holds the response cache, `SERVICE_GRAPHQL_RATE_LIMIT_REDIS_URL` the rate-limit counters (the
 * same URL may serve both). Each may use TLS (`..._USE_TLS`, `..._TLS_HOSTNAME`, one CA file for
 * both in `SERVICE_GRAPHQL_REDIS_TLS_SHARED_CA_STORE_PATH`). Without a URL the store is in the
 * engine's own memory (one node).
 */
import { readFileSync } from 'node:fs';

export interface RedisEndpoint {
  url: string;
  /** TLS settings; undefined: a plain connection (unless the URL is `rediss://`). */
  tls: { servername?: string; ca?: string } | undefined;
  /** How long a connection attempt may take before the store counts as unreachable. */
  connectTimeoutMs: number;
}

export interface RedisConfig {
  cache: RedisEndpoint | undefined;
  rateLimit: RedisEndpoint | undefined;
}

/** Reads one setting (its flag or variable), the error naming it on a bad value. */
export interface RedisSettings {
  get(env: string): string | undefined;
  fail(env: string, message: string): never;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 2_000;

export function redisConfig(s: RedisSettings): RedisConfig {
  const caPath = s.get('SERVICE_GRAPHQL_REDIS_TLS_SHARED_CA_STORE_PATH');
  let ca: string | undefined;
  if (caPath !== undefined) {
    try {
      ca = readFileSync(caPath, 'utf8');
    } catch (e) {
      s.fail('SERVICE_GRAPHQL_REDIS_TLS_SHARED_CA_STORE_PATH', `cannot read "${caPath}": ${(e as Error).message}`);
    }
  }
  const timeoutText = s.get('SERVICE_GRAPHQL_REDIS_CONNECT_TIMEOUT') ?? String(DEFAULT_CONNECT_TIMEOUT_MS / 1000);
  const seconds = Number(timeoutText);
  if (!/^\d+(\.\d+)?$/.test(timeoutText) || seconds <= 0 || seconds > 3600) s.fail('SERVICE_GRAPHQL_REDIS_CONNECT_TIMEOUT', `expected seconds from 0.001 to 3600, got "${timeoutText}"`);
  const endpoint = (prefix: string): RedisEndpoint | undefined => {
    const url = s.get(`${prefix}_URL`);
    if (url === undefined) return undefined;
    let protocol: string;
    try {
      protocol = new URL(url).protocol;
    } catch {
      s.fail(`${prefix}_URL`, 'not a valid URL');
    }
    if (protocol !== 'redis:' && protocol !== 'rediss:') s.fail(`${prefix}_URL`, `expected a redis:// or rediss:// URL, got "${protocol}"`);
    const useTls = s.get(`${prefix}_USE_TLS`) ?? 'false';
    if (useTls !== 'true' && useTls !== 'false') s.fail(`${prefix}_USE_TLS`, `expected true or false, got "${useTls}"`);
    const servername = s.get(`${prefix}_TLS_HOSTNAME`);
    const tls = useTls === 'true' || protocol === 'rediss:' ? { ...(servername ? { servername } : {}), ...(ca ? { ca } : {}) } : undefined;
    return { url, tls, connectTimeoutMs: Math.ceil(seconds * 1000) };
  };
  return { cache: endpoint('SERVICE_GRAPHQL_REDIS'), rateLimit: endpoint('SERVICE_GRAPHQL_RATE_LIMIT_REDIS') };
}
