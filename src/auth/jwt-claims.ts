/**
 * The service's claims in a verified token: the allowed roles, the default role and the other
 * `x-service-*` session variables, read from the claims namespace (a key or a JSON path, as a
 * JSON object or stringified JSON) or gathered by a `claims_map`. Errors and codes as the
 * well-known engine (`jwt-invalid-claims`, `jwt-missing-role-claims`).
 */
import { isObject, type Json, type JsonObject } from '../util/decode.js';
import { AuthError, invalidClaims } from './failure.js';
import { valueAt } from '../util/json-path.js';
import { ALLOWED_ROLES_CLAIM, DEFAULT_ROLE_CLAIM, type ClaimMapValue, type ClaimsMap, type JwtClaimsSource } from './jwt-config.js';
import { isSessionVariable } from './session.js';

export interface ServiceClaims {
  allowedRoles: string[];
  defaultRole: string;
  /** Other session variables by lower-cased name. */
  variables: Record<string, string>;
}

export function readServiceClaims(payload: JsonObject, source: JwtClaimsSource): ServiceClaims {
  const claims = source.kind === 'map' ? mappedClaims(payload, source.map) : namespacedClaims(payload, source);
  const { [ALLOWED_ROLES_CLAIM]: allowed, [DEFAULT_ROLE_CLAIM]: defaultRole, ...others } = claims;
  const variables: Record<string, string> = {};
  for (const [name, value] of Object.entries(others)) {
    if (typeof value !== 'string') throw invalidClaims(`x-service-* claims: the value of "${name}" must be a string`);
    variables[name] = value;
  }
  return { allowedRoles: allowedRoles(allowed), defaultRole: singleRole(defaultRole), variables };
}

const missingRoleClaim = (name: string) => new AuthError(400, 'jwt-missing-role-claims', `JWT claim does not contain ${name}`);

function allowedRoles(v: Json | undefined): string[] {
  if (v === undefined) throw missingRoleClaim(ALLOWED_ROLES_CLAIM);
  if (!Array.isArray(v) || !v.every((r) => typeof r === 'string' && r !== '')) {
    throw invalidClaims(`invalid ${ALLOWED_ROLES_CLAIM}; should be a list of roles`);
  }
  return v as string[];
}

function singleRole(v: Json | undefined): string {
  if (v === undefined) throw missingRoleClaim(DEFAULT_ROLE_CLAIM);
  if (typeof v !== 'string' || v === '') throw invalidClaims(`invalid ${DEFAULT_ROLE_CLAIM}; should be a single role name`);
  return v;
}

type NamespaceSource = Extract<JwtClaimsSource, { kind: 'namespace' }>;

/** The `x-service-*` keys of the namespace object, lower-cased (claim names are case-insensitive). */
function namespacedClaims(payload: JsonObject, source: NamespaceSource): Record<string, Json> {
  const { location, format } = source;
  const where = 'key' in location ? `claims_namespace ${location.key}` : `claims_namespace_path ${location.path.text}`;
  const found = 'key' in location ? (Object.hasOwn(payload, location.key) ? payload[location.key] : undefined) : valueAt(payload, location.path.path);
  if (found === undefined) {
    throw invalidClaims('key' in location ? `claims key: '${location.key}' not found` : `claims not found at claims_namespace_path: '${location.path.text}'`);
  }
  let object: Json | undefined = found;
  if (format === 'stringified_json') {
    if (typeof found !== 'string') throw invalidClaims('expecting a string when claims_format is stringified_json');
    object = parseJsonOrUndefined(found);
    if (!isObject(object)) throw invalidClaims(`expecting stringified json at: '${where}', but found: ${found}`);
  } else if (!isObject(found)) {
    throw invalidClaims('expecting a json object when claims_format is json');
  }
  const claims: Record<string, Json> = {};
  for (const [name, value] of Object.entries(object as JsonObject)) if (isSessionVariable(name)) claims[name.toLowerCase()] = value;
  return claims;
}

/** `claims_map` paths are read from the whole payload (registered claims included). */
function mappedClaims(payload: JsonObject, map: ClaimsMap): Record<string, Json> {
  const claims: Record<string, Json> = {};
  const put = (name: string, entry: ClaimMapValue<Json>, missing: () => AuthError) => {
    if ('value' in entry) claims[name] = entry.value;
    else {
      const found = valueAt(payload, entry.path.path) ?? entry.default;
      if (found === undefined) throw missing();
      claims[name] = found;
    }
  };
  put(ALLOWED_ROLES_CLAIM, map.allowedRoles, () => missingRoleClaim(ALLOWED_ROLES_CLAIM));
  put(DEFAULT_ROLE_CLAIM, map.defaultRole, () => missingRoleClaim(DEFAULT_ROLE_CLAIM));
  for (const [name, entry] of Object.entries(map.others)) put(name, entry, () => invalidClaims(`JWT claim from claims_map, ${name} not found`));
  return claims;
}

function parseJsonOrUndefined(text: string): Json | undefined {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
}
