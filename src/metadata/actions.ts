/**
 * Actions as stored (spec "Action"): the top-level `actions` list of `{name, definition,
 * comment?, permissions?}` in the well-known engine's export form. The definition is checked
 * here (GraphQL type texts, handler URL or `{{ENV}}` template, headers with `value` or
 * `value_from_env`, `timeout`, transforms); which types exist is the custom types' business
 * (custom-types.ts) and is checked by resolution (resolve/actions.ts).
 */
import { alreadyExists, badRequest, notExists } from '../errors/admin.js';
import { ApiError } from '../errors/admin.js';
import { parseRequestTransform, parseResponseTransform } from '../templates/request-transform.js';
import { arrayOf, bool, int, nonEmptyStr, ObjectReader, oneOf, str, type Json, type JsonObject, strOrNull } from '../util/decode.js';
import { firstRepeat } from '../util/first-repeat.js';
import { header, type RemoteHeader } from './remote-schemas.js';
import { graphqlName } from './names.js';
import { typeText } from './type-references.js';
import { checkUrlOrTemplate } from './url-template.js';
import type { InconsistentObject, Metadata } from './types.js';

export interface ActionArgument {
  name: string;
  type: string;
  description?: string;
}

export interface ActionDefinition {
  kind: 'synchronous' | 'asynchronous';
  type: 'query' | 'mutation';
  arguments?: ActionArgument[];
  output_type: string;
  handler: string;
  timeout?: number;
  headers?: RemoteHeader[];
  forward_client_headers?: boolean;
  /** As given (checked: every template parses); decoded where it is used. */
  request_transform?: JsonObject;
  response_transform?: JsonObject;
}

export interface ActionPermission {
  role: string;
  comment?: string;
}

export interface ActionMetadata {
  name: string;
  definition: ActionDefinition;
  comment?: string;
  permissions?: ActionPermission[];
}

/** The well-known engine's default handler timeout, in seconds (spec "Defaults summary" leaves it open). */
export const DEFAULT_ACTION_TIMEOUT_SECONDS = 30;

function handler(v: unknown, path: string): string {
  const s = nonEmptyStr(v, path);
  try {
    return checkUrlOrTemplate(s);
  } catch (e) {
    throw badRequest('parse-failed', `invalid handler: ${(e as Error).message}`, path);
  }
}

function argument(v: unknown, path: string): ActionArgument {
  const r = ObjectReader.of(v, path);
  const a: ActionArgument = { name: r.required('name', graphqlName), type: r.required('type', typeText) };
  const d = r.optional('description', str);
  r.done();
  if (d !== undefined) a.description = d;
  return a;
}

/** A transform checked as event triggers check theirs, kept as given. */
function transform(parse: typeof parseRequestTransform | typeof parseResponseTransform, definitionPath: string) {
  return (v: unknown, path: string): JsonObject => {
    const t = parse(v, path, definitionPath);
    if ('code' in t && 'error' in t) throw new ApiError(400, t.code, t.error, t.path, t.internal);
    return v as JsonObject;
  };
}

/** An action's `definition` (create_action, update_action, replace_metadata), defaults filled in (spec "Defaults summary"). */
export function actionDefinition(v: unknown, path: string): ActionDefinition {
  const r = ObjectReader.of(v, path);
  const d: ActionDefinition = {
    kind: r.withDefault('kind', oneOf(['synchronous', 'asynchronous'] as const, 'action kind'), 'synchronous'),
    type: r.withDefault('type', oneOf(['query', 'mutation'] as const, 'action type'), 'mutation'),
    output_type: r.required('output_type', typeText),
    handler: r.required('handler', handler),
  };
  const args = r.optional('arguments', arrayOf(argument));
  if (args) {
    const i = firstRepeat(args, (a) => a.name);
    if (i >= 0) throw badRequest('parse-failed', `the argument ${JSON.stringify(args[i]!.name)} is given more than once`, `${path}.arguments[${i}]`);
    if (args.length > 0) d.arguments = args;
  }
  const timeout = r.optional('timeout', (x, p) => (x === null ? undefined : int(x, p)));
  if (timeout !== undefined) {
    if (timeout <= 0) throw badRequest('parse-failed', 'the timeout must be a positive number of seconds', `${path}.timeout`);
    d.timeout = timeout;
  }
  const headers = r.optional('headers', arrayOf(header));
  if (headers?.length) d.headers = headers;
  if (r.optional('forward_client_headers', bool)) d.forward_client_headers = true;
  const rt = r.optional('request_transform', transform(parseRequestTransform, path));
  if (rt) d.request_transform = rt;
  const st = r.optional('response_transform', transform(parseResponseTransform, path));
  if (st) d.response_transform = st;
  r.done();
  if (d.kind === 'asynchronous' && d.type === 'query') throw badRequest('parse-failed', 'an asynchronous action must be a mutation', `${path}.kind`);
  return d;
}

function permission(v: unknown, path: string): ActionPermission {
  const r = ObjectReader.of(v, path);
  const p: ActionPermission = { role: r.required('role', nonEmptyStr) };
  const c = r.optional('comment', strOrNull);
  r.done();
  if (c !== undefined) p.comment = c;
  return p;
}

/** One stored action (replace_metadata's `actions` entries, create_action's args without `permissions`). */
export function actionEntry(v: unknown, path: string, withPermissions = true): ActionMetadata {
  const r = ObjectReader.of(v, path);
  const a: ActionMetadata = { name: r.required('name', graphqlName), definition: r.required('definition', actionDefinition) };
  const c = r.optional('comment', strOrNull);
  if (c !== undefined) a.comment = c;
  if (withPermissions) {
    const ps = r.optional('permissions', arrayOf(permission));
    if (ps?.length) {
      const i = firstRepeat(ps, (p) => p.role);
      if (i >= 0) throw badRequest('already-exists', `the permission for role ${JSON.stringify(ps[i]!.role)} is listed more than once`, `${path}.permissions[${i}]`);
      a.permissions = ps;
    }
  }
  r.done();
  return a;
}

/** The `actions` section of a document (replace_metadata). */
export function actionsSection(v: unknown, path: string): ActionMetadata[] {
  if (v === undefined || v === null) return [];
  const list = arrayOf((x, p) => actionEntry(x, p))(v, path);
  const i = firstRepeat(list, (a) => a.name);
  if (i >= 0) throw alreadyExists(`action with name ${JSON.stringify(list[i]!.name)} is listed more than once`, `${path}[${i}]`);
  return list;
}

export function actions(m: Metadata): ActionMetadata[] {
  return Array.isArray(m.actions) ? (m.actions as unknown as ActionMetadata[]) : [];
}

export function setActions(m: Metadata, list: ActionMetadata[]): void {
  if (list.length === 0) delete m.actions;
  else m.actions = list as unknown as Json;
}

export function findAction(m: Metadata, name: string, path: string): ActionMetadata {
  const a = actions(m).find((x) => x.name === name);
  if (!a) throw notExists(`action ${JSON.stringify(name)} does not exist`, path);
  return a;
}

/** Whether `role` may see the action: admin always; a role with a permission; an inherited role when any parent may (spec "Inherited role" rule 6). */
export function actionAllowed(a: ActionMetadata, role: string, parents: (role: string) => readonly string[] | undefined, seen = new Set<string>()): boolean {
  if (role === 'admin' || a.permissions?.some((p) => p.role === role)) return true;
  if (seen.has(role)) return false;
  seen.add(role);
  return (parents(role) ?? []).some((p) => actionAllowed(a, p, parents, seen));
}

/** How the engine calls an action's handler (what a plan's action step carries). */
export interface ActionHandler {
  url: string;
  headers: { name: string; value?: string; value_from_env?: string }[];
  forwardClientHeaders: boolean;
  timeoutSeconds: number;
  requestTransform?: Record<string, unknown>;
  responseTransform?: Record<string, unknown>;
}

/** How the handler of a definition is called (plan steps, the trigger-delivery actor), defaults filled in. */
export function actionHandler(d: ActionDefinition): ActionHandler {
  return {
    url: d.handler,
    headers: d.headers ?? [],
    forwardClientHeaders: d.forward_client_headers ?? false,
    timeoutSeconds: d.timeout ?? DEFAULT_ACTION_TIMEOUT_SECONDS,
    ...(d.request_transform ? { requestTransform: d.request_transform } : {}),
    ...(d.response_transform ? { responseTransform: d.response_transform } : {}),
  };
}

/** An asynchronous action as the trigger-delivery actor runs it. */
export interface AsyncActionView {
  name: string;
  handler: ActionHandler;
}

/** The consistent asynchronous actions (the snapshot header: their calls are processed in the background). */
export function asyncActionViews(m: Metadata, inconsistencies: readonly InconsistentObject[]): AsyncActionView[] {
  const broken = new Set(inconsistencies.filter((i) => i.type === 'action').map((i) => i.name));
  return actions(m)
    .filter((a) => a.definition.kind === 'asynchronous' && !broken.has(`action ${a.name}`))
    .map((a) => ({ name: a.name, handler: actionHandler(a.definition) }));
}
