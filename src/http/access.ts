/** Who may use the administration API: admin only (spec "Authentication" items 1 and 3). */
import { ApiError } from '../errors/admin.js';
import { ADMIN_ROLE, ROLE_VARIABLE, sessionVariables } from '../auth/session.js';

export interface AdminHeaders {
  adminSecret: string;
  role: string;
}

/** Null when the request may use the administration API, else the error to answer. */
export function adminAccessError(h: AdminHeaders, secretsConfigured: boolean, secretMatches: (s: string) => boolean): ApiError | null {
  if (secretsConfigured && (h.adminSecret === '' || !secretMatches(h.adminSecret))) {
    return new ApiError(401, 'access-denied', 'invalid x-service-admin-secret/x-service-access-key', '$');
  }
  if (h.role !== '' && h.role !== 'admin') return new ApiError(400, 'access-denied', 'restricted access : admin only', '$.args');
  return null;
}

/**
 * The session variables of an administration request (one `adminAccessError` let through): the
 * `x-service-*` headers, role admin. The rows it writes (`run_sql`, the data operations of
 * `/v1/query` and `/v2/query`) carry them to event triggers, as a GraphQL mutation's do.
 */
export function adminSessionVariables(headers: Record<string, string>): Record<string, string> {
  return { ...sessionVariables(Object.entries(headers)), [ROLE_VARIABLE]: ADMIN_ROLE };
}
