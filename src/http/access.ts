/**
 * Who may use the administration API: admin (spec "Authentication" items 1 and 3), and on
 * `/v1/query` a role the admin secret lets the caller choose, for the data operations only.
 */
import { adminOnly, ApiError } from '../errors/admin.js';
import { ADMIN_ROLE, requestedRole, ROLE_VARIABLE, sessionVariables } from '../auth/session.js';

export interface AdminHeaders {
  adminSecret: string;
  role: string;
}

/** The admin secret, when one is configured: without it nothing of the administration API answers. */
function secretError(h: AdminHeaders, secretsConfigured: boolean, secretMatches: (s: string) => boolean): ApiError | null {
  if (secretsConfigured && (h.adminSecret === '' || !secretMatches(h.adminSecret))) {
    return new ApiError(401, 'access-denied', 'invalid x-service-admin-secret/x-service-access-key', '$');
  }
  return null;
}

/** Null when the request may use the administration API, else the error to answer. */
export function adminAccessError(h: AdminHeaders, secretsConfigured: boolean, secretMatches: (s: string) => boolean): ApiError | null {
  return secretError(h, secretsConfigured, secretMatches) ?? (h.role !== '' && h.role !== ADMIN_ROLE ? adminOnly() : null);
}

/**
 * `/v1/query`: the caller may choose any role with `X-Service-Role` (with the admin secret, when one
 * is configured, as the well-known engine's tests do). A role other than admin may run only the data
 * operations, with its permissions: the metadata actor, which reads the body, refuses the rest.
 */
export function queryAccessError(h: AdminHeaders, secretsConfigured: boolean, secretMatches: (s: string) => boolean): ApiError | null {
  return secretError(h, secretsConfigured, secretMatches);
}

/**
 * The session variables of an administration request that access let through: the
 * `x-service-*` headers, with the role it runs as (admin unless `X-Service-Role` names
 * another). The rows it writes (`run_sql`, the data operations of `/v1/query` and
 * `/v2/query`) carry them to event triggers, as a GraphQL mutation's do.
 */
export function requestSessionVariables(headers: Record<string, string>): Record<string, string> {
  const variables = sessionVariables(headers);
  return { ...variables, [ROLE_VARIABLE]: requestedRole(variables) ?? ADMIN_ROLE };
}
