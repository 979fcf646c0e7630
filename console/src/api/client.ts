/**
 * The console's way to the engine's admin APIs (`/v1/metadata`, `/v2/query`,
 * `/v1/graphql/explain`, RESTified endpoints), with the admin secret the user gave; GraphQL
 * itself goes through the API section's GraphiQL fetcher (`sections/explorer/fetcher.ts`). Whatever the
 * console does, a script can do with the same calls. A refused call becomes an `ApiFailure`
 * carrying the engine's message, code and JSON path, shown where it happened (`ui/ErrorNote`).
 */
import { storedSecret } from './session';

export class ApiFailure extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    /** The JSON path the engine names (`$.args.table`), or '' */
    readonly path: string,
    /** The engine's `internal` detail, when it gives one (the database's own error; the inconsistent objects that refused a `replace_metadata`). */
    readonly internal?: unknown,
  ) {
    super(message);
  }
}

export const ADMIN_SECRET_HEADER = 'x-service-admin-secret';

/** The headers of an admin call (the stored secret, when there is one). */
function adminHeaders(): Record<string, string> {
  const secret = storedSecret();
  return { 'content-type': 'application/json', ...(secret !== null ? { [ADMIN_SECRET_HEADER]: secret } : {}) };
}

interface AdminError {
  error?: unknown;
  code?: unknown;
  path?: unknown;
  message?: unknown;
  internal?: unknown;
}

/** One exchange with the engine: its status and its body (parsed as JSON when it is). */
async function exchange(method: string, path: string, body: unknown, headers: Record<string, string>): Promise<{ ok: boolean; status: number; text: string; parsed: unknown }> {
  let res: Response;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new ApiFailure(`the engine could not be reached: ${e instanceof Error ? e.message : String(e)}`, 0, 'unreachable', '');
  }
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { ok: res.ok, status: res.status, text, parsed };
}

async function send<T>(method: string, path: string, body: unknown, headers: Record<string, string> = adminHeaders()): Promise<T> {
  const { ok, status, text, parsed } = await exchange(method, path, body, headers);
  if (!ok) {
    const e = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as AdminError;
    const message = typeof e.error === 'string' ? e.error : typeof e.message === 'string' ? e.message : `${status} ${text.slice(0, 200)}`;
    throw new ApiFailure(message, status, typeof e.code === 'string' ? e.code : String(status), typeof e.path === 'string' ? e.path : '', e.internal);
  }
  return parsed as T;
}

const post = <T>(path: string, body: unknown, headers?: Record<string, string>): Promise<T> => send<T>('POST', path, body, headers);

/** A GET of an admin route (`/v1/version`, `/v1alpha1/config`). */
export const get = <T = unknown>(path: string): Promise<T> => send<T>('GET', path, undefined);

/**
 * A RESTified endpoint's call (`/api/rest/...`) with the admin headers and `headers` (a role,
 * session variables), answered as it came (its status and JSON body, errors included): the
 * endpoints' page shows the answer itself.
 */
export const callRestEndpoint = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: unknown }> => {
  const { status, parsed } = await exchange(method, path, body, { ...adminHeaders(), ...headers });
  return { status, body: parsed };
};

/** One `/v1/metadata` call (`{type, args}`; bulk calls pass `args` as the list). */
export const metadata = <T = unknown>(type: string, args: unknown, extra: Record<string, unknown> = {}): Promise<T> => post<T>('/v1/metadata', { type, args, ...extra });

/** One `/v2/query` call. */
export const query = <T = unknown>(type: string, args: unknown): Promise<T> => post<T>('/v2/query', { type, args });

export interface RunSqlResult {
  result_type: 'CommandOk' | 'TuplesOk';
  /** With `TuplesOk`: the header row, then the rows, every value as text (or null). */
  result: (string | null)[][] | null;
}

export interface RunSqlOptions {
  source?: string;
  cascade?: boolean;
  read_only?: boolean;
  check_metadata_consistency?: boolean;
}

/** `run_sql` on a source (default: `default`). */
export const runSql = (sql: string, options: RunSqlOptions = {}): Promise<RunSqlResult> => query<RunSqlResult>('run_sql', { source: 'default', ...options, sql });

export interface Explained {
  field?: string;
  sql: string;
  plan: string[];
}

/**
 * `/v1/graphql/explain`: the SQL a query runs, with PostgreSQL's plan: one entry per root field
 * of a query, one object (the multiplexed statement) for a subscription.
 */
export const explain = (body: { query: { query: string; variables?: Record<string, unknown>; operationName?: string }; user?: Record<string, string> }) =>
  post<Explained[] | Explained>('/v1/graphql/explain', body);

/** Whether `secret` opens the admin API (the sign-in check). */
export async function checkSecret(secret: string): Promise<boolean> {
  try {
    await post('/v1/metadata', { type: 'get_inconsistent_metadata', args: {} }, { 'content-type': 'application/json', ...(secret ? { [ADMIN_SECRET_HEADER]: secret } : {}) });
    return true;
  } catch (e) {
    if (e instanceof ApiFailure && (e.status === 401 || e.status === 403 || e.code === 'access-denied')) return false;
    throw e;
  }
}
