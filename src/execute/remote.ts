/**
 * Running a remote step (protocol/plan.ts `RemoteRun`): the query sent to the remote server
 * with the request variables it reads and the session's preset values, the configured headers,
 * the client's when `forward_client_headers`, and the session variables as `x-service-*`
 * headers (docs/behaviour.md "Remote schemas"); the field's value taken from the answer with
 * `__typename` values put back to the customized names. The remote's errors are passed on, with
 * their paths in our response; a call that fails fails the request (the executor says at which field).
 */
import { ApiError } from '../errors/admin.js';
import type { RemoteRun, SessionPreset, TypenameTree } from '../protocol/plan.js';
import { callRemote, type RemoteAnswer } from '../remote/server.js';
import type { ResponsePath } from './join.js';
import type { RemoteServer } from '../remote/server.js';
import { RequestError } from '../errors/request.js';
import { ExecutionError } from '../errors/execution.js';
import { NOT_FORWARDED } from '../outgoing/forwarded-headers.js';
import type { Context } from '../observability/traces/tracer.js';

/** Besides the webhook's list: the client connection's own framing. */
const NOT_FORWARDED_TO_REMOTES = new Set(['transfer-encoding', 'upgrade']);


export interface RemoteCallContext {
  variables: Record<string, unknown>;
  session: Record<string, string>;
  /** The client's request headers (lower-case names). */
  clientHeaders: Record<string, string>;
  /** The remote servers' errors, gathered into the response's `errors`. */
  errors: unknown[];
  /** The remote servers' and action handlers' `Set-Cookie` values, gathered for the HTTP response. */
  setCookies: string[];
  /** The request's trace context, when traced: each call is a client span in it. */
  trace?: Context;
  /** The request's id, for the lines its calls log. */
  requestId?: string | undefined;
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

/** A remote's error without `locations` (they point into the query we sent, not the client's) and its `path`. */
function withoutPlace(e: unknown): { error: Record<string, unknown>; path: unknown } {
  if (e === null || typeof e !== 'object' || Array.isArray(e)) return { error: { message: String(e) }, path: undefined };
  const { locations: _, path, ...error } = e as { locations?: unknown; path?: unknown };
  return { error, path };
}

/** `at`: the response keys above the field (its namespace), for the remote's error paths. */
export async function runRemoteStep(run: RemoteRun, at: string[], server: RemoteServer | undefined, ctx: RemoteCallContext): Promise<string> {
  const answer = await call(run, server, ctx, run.query, {});
  // The remote's errors with their paths under the field's place in our response.
  for (const e of answer.errors ?? []) {
    const { error, path } = withoutPlace(e);
    ctx.errors.push(Array.isArray(path) ? { ...error, path: [...at, ...path] } : error);
  }
  const data = answer.data;
  const value = data !== null && typeof data === 'object' ? ((data as Record<string, unknown>)[run.field] ?? null) : null;
  if (run.typenames) renameTypenames(value, run.typenames.tree, run.typenames.names);
  return JSON.stringify(value);
}

/**
 * A remote relationship for every key tuple of the response in one call: the field once per
 * tuple under an alias of its own, the tuple's values as variables. Answers one value per tuple.
 * `places`: where each tuple's value goes in the response (graph.ts), for the remote's errors.
 */
export async function runRemoteJoin(run: RemoteRun, joinKeys: string, server: RemoteServer | undefined, ctx: RemoteCallContext, places: () => ResponsePath[][] = () => []): Promise<string> {
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
  const { data, errors } = await call(run, server, ctx, query, keys);
  if (errors) {
    const where = places();
    ctx.errors.push(...errors.flatMap((e) => joinedErrors(e, batch.path, where)));
  }
  // Without errors to say why, a value missing from the answer is the remote's mistake, not null.
  const strict = !errors;
  if (strict && (data === null || typeof data !== 'object' || Array.isArray(data))) throw malformed(run, 'its "data" is not an object');
  return JSON.stringify(
    tuples.map((_, i) => {
      let v: unknown = data !== null && typeof data === 'object' ? (data as Record<string, unknown>)[`r${i}`] : null;
      if (v === undefined && strict) throw malformed(run, `its "data" has no "r${i}" (asked for the rows with ${JSON.stringify(tuples[i])})`);
      for (const k of batch.path) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : null;
      v ??= null;
      if (run.typenames) renameTypenames(v, run.typenames.tree, run.typenames.names);
      return v;
    }),
  );
}

/**
 * A remote's error in a batched join, placed in our response: a path into `r<i>` goes under
 * the relationship field of every object with tuple i (the relationship's own chain of fields
 * left out of it, as the client does not see it); any other error (no path, or not into a
 * tuple's field) at the field's first place.
 */
function joinedErrors(e: unknown, chain: string[], places: ResponsePath[][]): unknown[] {
  const { error, path } = withoutPlace(e);
  const alias = Array.isArray(path) && typeof path[0] === 'string' ? /^r(\d+)$/.exec(path[0]) : null;
  const tuplePlaces = alias ? places[Number(alias[1])] : undefined;
  if (!tuplePlaces || tuplePlaces.length === 0) {
    const first = places.find((p) => p.length > 0)?.[0];
    return [first ? { ...error, path: first } : error];
  }
  let below = (path as ResponsePath).slice(1);
  for (const name of chain) {
    if (below[0] !== name) break;
    below = below.slice(1);
  }
  return tuplePlaces.map((place) => ({ ...error, path: [...place, ...below] }));
}

const failed = (run: RemoteRun, reason: string) => new ExecutionError(new ApiError(400, 'remote-schema-error', `error calling remote schema ${JSON.stringify(run.remote)}: ${reason}`, '$'));
const malformed = (run: RemoteRun, reason: string) => failed(run, `the remote server's answer is not what was asked: ${reason}`);

/** The call and its answer. A call that fails (refused, timeout, not a GraphQL response) fails the request; the executor says where. */
async function call(run: RemoteRun, server: RemoteServer | undefined, ctx: RemoteCallContext, query: string, extra: Record<string, unknown>): Promise<RemoteAnswer> {
  if (!server) throw new ExecutionError(new ApiError(400, 'remote-schema-error', `remote schema ${JSON.stringify(run.remote)} is not available`, '$'));
  const variables: Record<string, unknown> = { ...extra };
  for (const name of run.variables) if (ctx.variables[name] !== undefined) variables[name] = ctx.variables[name];
  for (const p of run.sessionPresets) variables[p.variable] = sessionValue(p, ctx.session);
  try {
    const answer = await callRemote(server.client, server.endpoint, headersFor(server, ctx), { query, variables }, ctx.trace && { name: `remote schema ${run.remote}`, parent: ctx.trace });
    if (answer.setCookies) ctx.setCookies.push(...answer.setCookies);
    return answer;
  } catch (e) {
    throw failed(run, e instanceof Error ? e.message : String(e));
  }
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
