/**
 * The explorer's request headers, as the well-known console's "Request Headers" panel keeps
 * them: the admin secret (sent by default, its value never stored here: it is the one the user
 * signed in with, `api/session.ts`), the role to run as (`x-service-role`, empty: admin) and
 * session variables (`x-service-*`), each row sent only while enabled. Kept in sessionStorage
 * for the browser session, like the secret.
 */
import { ADMIN_SECRET_HEADER } from '../../api/client';
import { storedSecret } from '../../api/session';

export const ROLE_HEADER = 'x-service-role';
const SESSION_PREFIX = 'x-service-';
const KEY = 'service-console-explorer-headers';

export interface SessionVariable {
  /** A stable React key for the row (rows are added and removed in any order). */
  id: number;
  enabled: boolean;
  name: string;
  value: string;
}

export interface RequestSettings {
  sendSecret: boolean;
  sendRole: boolean;
  role: string;
  variables: SessionVariable[];
}

const DEFAULT_SETTINGS: RequestSettings = { sendSecret: true, sendRole: true, role: '', variables: [] };

/** Why a session variable's name cannot be sent, or null. */
export function variableNameProblem(name: string): string | null {
  const lower = name.trim().toLowerCase();
  if (lower === '') return null;
  if (!lower.startsWith(SESSION_PREFIX) || lower === SESSION_PREFIX) return `a session variable's name starts with ${SESSION_PREFIX}`;
  if (lower === ROLE_HEADER) return 'the role is set in the Role field';
  if (lower === ADMIN_SECRET_HEADER) return 'the admin secret is the one you signed in with';
  return null;
}

/** The session variables that are sent: enabled, named, and named well. */
function sentVariables(settings: RequestSettings): [string, string][] {
  return settings.variables.filter((v) => v.enabled && v.name.trim() !== '' && variableNameProblem(v.name) === null).map((v) => [v.name.trim().toLowerCase(), v.value]);
}

/** The session the explorer asks for (role and variables), as explain's `user` takes it. */
export function sessionOf(settings: RequestSettings): Record<string, string> {
  const session = Object.fromEntries(sentVariables(settings));
  if (settings.sendRole && settings.role.trim() !== '') session[ROLE_HEADER] = settings.role.trim();
  return session;
}

/** The headers of a GraphQL request from the explorer (without the content type). */
export function headersOf(settings: RequestSettings): Record<string, string> {
  const secret = storedSecret();
  return { ...(settings.sendSecret && secret ? { [ADMIN_SECRET_HEADER]: secret } : {}), ...sessionOf(settings) };
}

export function loadSettings(): RequestSettings {
  try {
    const stored = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Partial<RequestSettings> | null;
    if (stored === null || typeof stored !== 'object') return DEFAULT_SETTINGS;
    return {
      sendSecret: stored.sendSecret !== false,
      sendRole: stored.sendRole !== false,
      role: typeof stored.role === 'string' ? stored.role : '',
      variables: Array.isArray(stored.variables)
        ? stored.variables.filter((v): v is SessionVariable => typeof v?.name === 'string' && typeof v.value === 'string').map((v, i) => ({ id: i, enabled: v.enabled !== false, name: v.name, value: v.value }))
        : [],
    };
  } catch {
    // Not JSON (written by another version): start again.
    return DEFAULT_SETTINGS;
  }
}

export const saveSettings = (settings: RequestSettings): void => sessionStorage.setItem(KEY, JSON.stringify(settings));
