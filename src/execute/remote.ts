/**
 * Running a remote step (protocol/plan.ts `RemoteRun`): the query sent to the remote server
 * with the request variables it reads and the session's preset values, the configured headers,
 * the client's when `forward_client_headers`, and the session variables as `x-service-*`
 * headers (docs/behaviour.md "Remote schemas"); the field's value taken from the answer with
 * `__typename` values put back to the customized names. The remote's errors are passed on.
 */
import { ApiError } from '../protocol/errors.js';
import type { RemoteRun, SessionPreset, TypenameTree } from '../protocol/plan.js';
import { callRemote } from '../remote/server.js';
import type { RemoteServer } from '../remote/servers.js';
import { RequestError } from '../compiler/errors.js';
import { ExecutionError } from './errors.js';
import { NOT_FORWARDED } from '../outgoing/forwarded-headers.js';

/** Besides the webhook's list: the client connection's own framing. */
const NOT_FORWARDED_TO_REMOTES = new Set(['transfer-encoding', 'upgrade']);


export interface RemoteCallContext {
  variables: Record<string, unknown>;
  session: Record<string, string>;
  /** The client's request headers (lower-case names). */
  clientHeaders: Record<string, string>;
  /** The remote servers' errors, gathered into the response's `errors`. */
  errors: unknown[];
}

function headersFor(server: RemoteServer, ctx: RemoteCallContext): Record<string, string> {
  const out: Record<string, string> = {};
  if (server.endpoint.forwardClientHeaders) {
    for (const [k, v] of Object.entries(ctx.clientHeaders)) if (!NOT_FORWARDED.has(k) && !NOT_FORWARDED_TO_REMOTES.has(k) && !k.startsWith('x-service-')) out[k] = v;
  }
  Object.assign(out, server.endpoint.headers);
  // The session, never the client's own x-service-* headers (an admin secret among them).
  Object.assign(out, ctx.session);
  return out;
}

function sessionValue(p: SessionPreset, session: Record<string, string>): unknown {
  const text = session[p.session];
  if (text === undefined) throw new RequestError(`missing session variable: ${JSON.stringify(p.session)}`, '$', 'not-found');
  let v: unknown = text;
  if (p.scalar === 'Int' || p.scalar === 'Float') {
    v = Number(text);
    if (text.trim() === '' || !Number.isFinite(v) || (p.scalar === 'Int' && !Number.isInteger(v))) throw new RequestError(`session variable ${JSON.stringify(p.session)} is not a valid ${p.scalar}: ${JSON.stringify(text)}`, '$', 'parse-failed');
  } else if (p.scalar === 'Boolean') {
    if (text !== 'true' && text !== 'false') throw new RequestError(`session variable ${JSON.stringify(p.session)} is not a valid Boolean: ${JSON.stringify(text)}`, '$', 'parse-failed');
    v = text === 'true';
  }
  return p.list ? [v] : v;
}

/**
 * The remote's error as the client sees it: its path under the field's place in our response
 * (`at`: the keys above the field, a namespace), no `locations` (they point into the query we
 * sent, not the client's).
 */
function clientError(e: unknown, at: string[] | null): unknown {
  if (e === null || typeof e !== 'object') return { message: String(e) };
  const { locations: _, path, ...rest } = e as { locations?: unknown; path?: unknown };
  return Array.isArray(path) && at ? { ...rest, path: [...at, ...path] } : rest;
}

/** `at`: the response keys above the field (its namespace), for the remote's error paths. */
export async function runRemoteStep(run: RemoteRun, at: string[], server: RemoteServer | undefined, ctx: RemoteCallContext): Promise<string> {
  const data = await call(run, server, ctx, run.query, {}, at);
  const value = data !== null && typeof data === 'object' ? ((data as Record<string, unknown>)[run.field] ?? null) : null;
  if (run.typenames) renameTypenames(value, run.typenames.tree, run.typenames.names);
  return JSON.stringify(value);
}

/**
 * A remote relationship for every key tuple of the response in one call: the field once per
 * tuple under an alias of its own, the tuple's values as variables. Answers one value per tuple.
 */
export async function runRemoteJoin(run: RemoteRun, joinKeys: string, server: RemoteServer | undefined, ctx: RemoteCallContext): Promise<string> {
  const batch = run.batch!;
  const tuples = JSON.parse(joinKeys) as Record<string, unknown>[];
  if (tuples.length === 0) return '[]';
  const columns = Object.keys(tuples[0]!);
  const declarations = batch.declarations ? [batch.declarations] : [];
  const keys: Record<string, unknown> = {};
  const fields = tuples.map((tuple, i) => {
    batch.keyTypes.forEach((type, j) => {
      declarations.push(`$__k${i}_${j}: ${type}`);
      keys[`__k${i}_${j}`] = tuple[columns[j]!] ?? null;
    });
    return `r${i}: ${batch.parts.map((part, k) => (k === 0 ? part : `$__k${i}_${batch.slots[k - 1]}${part}`)).join('')}`;
  });
  const query = `query${declarations.length ? ` (${declarations.join(', ')})` : ''} { ${fields.join(' ')} }`;
  const data = await call(run, server, ctx, query, keys, null);
  return JSON.stringify(
    tuples.map((_, i) => {
      let v: unknown = data !== null && typeof data === 'object' ? (data as Record<string, unknown>)[`r${i}`] : null;
      for (const k of batch.path) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : null;
      v ??= null;
      if (run.typenames) renameTypenames(v, run.typenames.tree, run.typenames.names);
      return v;
    }),
  );
}

/** The call and its `data`; the remote's errors are gathered (`at`: where their paths go; null: a join's, paths dropped). */
async function call(run: RemoteRun, server: RemoteServer | undefined, ctx: RemoteCallContext, query: string, extra: Record<string, unknown>, at: string[] | null): Promise<unknown> {
  if (!server) throw new ExecutionError(new ApiError(400, 'remote-schema-error', `remote schema ${JSON.stringify(run.remote)} is not available`, '$'));
  const variables: Record<string, unknown> = { ...extra };
  for (const name of run.variables) if (ctx.variables[name] !== undefined) variables[name] = ctx.variables[name];
  for (const p of run.sessionPresets) variables[p.variable] = sessionValue(p, ctx.session);
  let answer;
  try {
    answer = await callRemote(server.client, server.endpoint, headersFor(server, ctx), { query, variables });
  } catch (e) {
    throw new ExecutionError(new ApiError(400, 'remote-schema-error', `error calling remote schema ${JSON.stringify(run.remote)}: ${e instanceof Error ? e.message : String(e)}`, '$'));
  }
  if (answer.errors) ctx.errors.push(...answer.errors.map((e) => clientError(e, at)));
  return answer.data;
}

function renameTypenames(v: unknown, tree: TypenameTree, names: Record<string, string>): void {
  if (Array.isArray(v)) {
    for (const x of v) renameTypenames(x, tree, names);
    return;
  }
  if (v === null || typeof v !== 'object') return;
  const o = v as Record<string, unknown>;
  for (const k of tree.keys ?? []) {
    const t = o[k];
    if (typeof t === 'string' && Object.hasOwn(names, t)) o[k] = names[t];
  }
  for (const [k, sub] of Object.entries(tree.fields ?? {})) renameTypenames(o[k], sub, names);
}
