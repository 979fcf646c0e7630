/**
 * `SERVICE_GRAPHQL_JWT_SECRET`: the JSON configuration of JWT mode, checked whole at boot
 * (key material included) so a bad value stops the engine with the JSON path of the mistake.
 * Fields as the well-known engine's "JWT mode" page; unknown fields are refused, since a
 * misspelt `audience` silently ignored would accept tokens meant for someone else.
 */
import { parseFailed } from '../errors/admin.js';
import { arrayOf, isObject, nonEmptyStr, num, ObjectReader, oneOf, str } from '../util/decode.js';
import { parseJsonPath, type JsonPath } from '../util/json-path.js';
import { importVerificationKey, JWT_KEY_TYPES, type JwtKeyType } from './jwt-keys.js';
import { isSessionVariable } from './session.js';

export const DEFAULT_CLAIMS_NAMESPACE = 'https://service.io/jwt/claims';
export const ALLOWED_ROLES_CLAIM = 'x-service-allowed-roles';
export const DEFAULT_ROLE_CLAIM = 'x-service-default-role';

export type JwtKeySource = { kind: 'key'; type: JwtKeyType; key: string } | { kind: 'jwk-url'; url: string; type?: JwtKeyType };

/** A JSON path with its text, for messages. */
export interface ClaimPath {
  path: JsonPath;
  text: string;
}

/** A `claims_map` entry: a path into the token (with a fallback), or a literal. */
export type ClaimMapValue<T> = { path: ClaimPath; default?: T } | { value: T };

export interface ClaimsMap {
  allowedRoles: ClaimMapValue<string[]>;
  defaultRole: ClaimMapValue<string>;
  /** Other session variables by lower-cased name. */
  others: Record<string, ClaimMapValue<string>>;
}

export type JwtClaimsSource =
  | { kind: 'namespace'; location: { key: string } | { path: ClaimPath }; format: 'json' | 'stringified_json' }
  | { kind: 'map'; map: ClaimsMap };

export type JwtTokenLocation = { type: 'Authorization' } | { type: 'Cookie'; name: string };

export interface JwtConfig {
  key: JwtKeySource;
  claims: JwtClaimsSource;
  /** Any one of these must be in the token's `aud`. */
  audience?: string[];
  issuer?: string;
  allowedSkewSeconds: number;
  tokenLocation: JwtTokenLocation;
}

/** Throws `ApiError` (`parse-failed`) naming the JSON path of the first mistake. */
export function decodeJwtConfig(text: string): JwtConfig {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw parseFailed(`not valid JSON: ${e instanceof Error ? e.message : String(e)}`, '$');
  }
  const r = ObjectReader.of(json, '$', 'JWTConfig');
  const type = r.optional('type', oneOf(JWT_KEY_TYPES, 'key type'));
  const key = r.optional('key', nonEmptyStr);
  const jwkUrl = r.optional('jwk_url', httpUrl);
  const namespace = r.optional('claims_namespace', nonEmptyStr);
  const namespacePath = r.optional('claims_namespace_path', claimPath);
  const format = r.withDefault('claims_format', oneOf(['json', 'stringified_json'] as const, 'claims_format'), 'json');
  const claimsMap = r.optional('claims_map', decodeClaimsMap);
  const audience = r.optional('audience', audienceList);
  const issuer = r.optional('issuer', str);
  const allowedSkewSeconds = r.withDefault('allowed_skew', nonNegative, 0);
  const tokenLocation = r.withDefault('header', decodeTokenLocation, { type: 'Authorization' });
  r.done();

  if (namespace !== undefined && namespacePath !== undefined) throw parseFailed('claims_namespace and claims_namespace_path both cannot be set', '$');
  const config: JwtConfig = {
    key: keySource(type, key, jwkUrl),
    // As upstream, a claims_map takes precedence over the namespace settings.
    claims: claimsMap
      ? { kind: 'map', map: claimsMap }
      : { kind: 'namespace', location: namespacePath ? { path: namespacePath } : { key: namespace ?? DEFAULT_CLAIMS_NAMESPACE }, format },
    allowedSkewSeconds,
    tokenLocation,
  };
  if (audience !== undefined) config.audience = audience;
  if (issuer !== undefined) config.issuer = issuer;
  return config;
}

function keySource(type: JwtKeyType | undefined, key: string | undefined, jwkUrl: string | undefined): JwtKeySource {
  if (key !== undefined && jwkUrl !== undefined) throw parseFailed('key, jwk_url both cannot be present', '$');
  if (jwkUrl !== undefined) {
    if (type?.startsWith('HS')) throw parseFailed(`type ${type} cannot be used with jwk_url: a JWK set holds public keys only`, '$.type');
    return type === undefined ? { kind: 'jwk-url', url: jwkUrl } : { kind: 'jwk-url', url: jwkUrl, type };
  }
  if (key === undefined) throw parseFailed('key and jwk_url both cannot be empty', '$');
  if (type === undefined) throw parseFailed('key "type" not found (it is required with "key")', '$');
  try {
    importVerificationKey(type, key);
  } catch (e) {
    throw parseFailed(`Invalid JWK: ${e instanceof Error ? e.message : String(e)}`, '$.key');
  }
  return { kind: 'key', type, key };
}

function httpUrl(v: unknown, path: string): string {
  const text = nonEmptyStr(v, path);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw parseFailed(`not a valid URL: "${text}"`, path);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw parseFailed(`expected an http:// or https:// URL, got "${url.protocol}"`, path);
  return text;
}

function claimPath(v: unknown, path: string): ClaimPath {
  const text = nonEmptyStr(v, path);
  const parsed = parseJsonPath(text);
  if (!parsed) throw parseFailed(`invalid JSON path "${text}"`, path);
  return { path: parsed, text };
}

function nonNegative(v: unknown, path: string): number {
  const n = num(v, path);
  if (n < 0) throw parseFailed(`expected a number of seconds >= 0, got ${n}`, path);
  return n;
}

function audienceList(v: unknown, path: string): string[] {
  const list = typeof v === 'string' ? [v] : arrayOf(str)(v, path);
  if (list.length === 0) throw parseFailed('expected an audience or a non-empty list of audiences', path);
  return list;
}

function decodeTokenLocation(v: unknown, path: string): JwtTokenLocation {
  const r = ObjectReader.of(v, path, 'JWTHeader');
  const type = r.required('type', str).toLowerCase();
  let location: JwtTokenLocation;
  if (type === 'authorization') location = { type: 'Authorization' };
  else if (type === 'cookie') location = { type: 'Cookie', name: r.required('name', nonEmptyStr) };
  else throw parseFailed(`expected 'type' is 'Authorization' or 'Cookie', got "${type}"`, r.at('type'));
  r.done();
  return location;
}

const roleName = nonEmptyStr;
const roleList = (v: unknown, path: string) => arrayOf(roleName)(v, path);

function claimMapValue<T>(literal: (v: unknown, path: string) => T) {
  return (v: unknown, path: string): ClaimMapValue<T> => {
    if (!isObject(v)) return { value: literal(v, path) };
    const r = ObjectReader.of(v, path);
    const at = r.required('path', claimPath);
    const fallback = r.optional('default', literal);
    r.done();
    return fallback === undefined ? { path: at } : { path: at, default: fallback };
  };
}

/** Session variable names are case-insensitive: keys are lower-cased, and must be `x-service-*`. */
function decodeClaimsMap(v: unknown, path: string): ClaimsMap {
  const r = ObjectReader.of(v, path, 'JWTClaimsMap');
  const byName = new Map<string, { value: unknown; path: string }>();
  for (const [name, value] of Object.entries(r.value)) {
    const lower = name.toLowerCase();
    if (!isSessionVariable(lower)) throw parseFailed(`"${name}" is not a session variable (x-service-*)`, r.at(name));
    if (byName.has(lower)) throw parseFailed(`"${name}" is given twice (names are case-insensitive)`, r.at(name));
    byName.set(lower, { value, path: r.at(name) });
  }
  const take = <T>(name: string, decode: (v: unknown, path: string) => T): T => {
    const entry = byName.get(name);
    if (!entry) throw parseFailed(`${name} is expected but not found`, path);
    byName.delete(name);
    return decode(entry.value, entry.path);
  };
  const allowedRoles = take(ALLOWED_ROLES_CLAIM, claimMapValue(roleList));
  const defaultRole = take(DEFAULT_ROLE_CLAIM, claimMapValue(roleName));
  const others: Record<string, ClaimMapValue<string>> = {};
  for (const [name, entry] of byName) others[name] = claimMapValue(str)(entry.value, entry.path);
  return { allowedRoles, defaultRole, others };
}
