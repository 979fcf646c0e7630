/** Who may use the administration API: admin only (spec "Authentication" items 1 and 3). */
import { ApiError } from '../protocol/errors.js';

export interface AdminHeaders {
  adminSecret: string;
  role: string;
}

/** How a route refuses a request that names a role other than admin. */
export interface RoleRefusal {
  status: number;
  message: string;
  path: string;
}

/** The administration API's answer, as the well-known engine gives it. */
export const ADMIN_API_ROLE_REFUSAL: RoleRefusal = { status: 400, message: 'restricted access : admin only', path: '$.args' };

/** Null when the request may use an admin-only route, else the error to answer. */
export function adminAccessError(h: AdminHeaders, secretsConfigured: boolean, secretMatches: (s: string) => boolean, refusal = ADMIN_API_ROLE_REFUSAL): ApiError | null {
  if (secretsConfigured && (h.adminSecret === '' || !secretMatches(h.adminSecret))) {
    return new ApiError(401, 'access-denied', 'invalid x-service-admin-secret/x-service-access-key', '$');
  }
  if (h.role !== '' && h.role !== 'admin') return new ApiError(refusal.status, 'access-denied', refusal.message, refusal.path);
  return null;
}
