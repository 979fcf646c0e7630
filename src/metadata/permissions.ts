/**
 * Insert, select, update and delete permissions (spec "Permissions"): the stored form
 * (as the well-known engine exports it: defaults and empty parts left out) and the
 * check of a stored permission against its table, which parses its boolean
 * expressions. Both report the JSON path of what is wrong.
 */
import { badRequest, parseFailed } from '../errors/admin.js';
import { arrayOf, bool, int, isObject, keyPath, nonEmptyStr, obj, ObjectReader, oneOf, str, type Json, type JsonObject } from '../util/decode.js';
import { parseBoolExp, type BoolExpScope, type ParsedExpressions } from './boolexp.js';
import { checkLiteral, sessionVariable } from './boolexp-operators.js';
import { sameJson } from '../util/same-json.js';
import type { PermissionKind, ResolvedPermission, ResolvedTable } from './resolve/types.js';

/** `'*'` or a list of column names. */
function columnSpec(v: unknown, path: string): Json {
  if (v === '*') return '*';
  if (typeof v === 'string') throw parseFailed('expecting "*" or [columns]', path);
  return arrayOf(str)(v, path);
}

function boolExpJson(v: unknown, path: string): JsonObject {
  if (!isObject(v)) throw parseFailed('expecting an Object for boolean exp', path);
  return v;
}

const QUERY_ROOT_FIELDS = ['select', 'select_by_pk', 'select_aggregate'] as const;
const SUBSCRIPTION_ROOT_FIELDS = ['select', 'select_by_pk', 'select_aggregate', 'select_stream'] as const;

function nonNegative(v: unknown, path: string): number {
  const n = int(v, path);
  if (n < 0) throw parseFailed('unexpected negative value', path);
  return n;
}

/** Reads the fields of one permission kind into `out`, leaving out defaults. */
const BODY_READERS: Record<PermissionKind, (r: ObjectReader, out: JsonObject) => void> = {
  insert(r, out) {
    out.check = r.required('check', boolExpJson);
    const set = r.optional('set', obj);
    if (set && Object.keys(set).length > 0) out.set = set;
    const columns = r.optional('columns', columnSpec);
    if (columns !== undefined) out.columns = columns;
    mutationExtras(r, out);
  },
  select(r, out) {
    out.columns = r.required('columns', columnSpec);
    const computed = r.optional('computed_fields', arrayOf(str));
    if (computed && computed.length > 0) out.computed_fields = computed;
    out.filter = r.withDefault('filter', boolExpJson, {});
    const limit = r.optional('limit', nonNegative);
    if (limit !== undefined) out.limit = limit;
    if (r.withDefault('allow_aggregations', bool, false)) out.allow_aggregations = true;
    const query = r.optional('query_root_fields', arrayOf(oneOf(QUERY_ROOT_FIELDS, 'query root field')));
    if (query) out.query_root_fields = query;
    const subscription = r.optional('subscription_root_fields', arrayOf(oneOf(SUBSCRIPTION_ROOT_FIELDS, 'subscription root field')));
    if (subscription) out.subscription_root_fields = subscription;
  },
  update(r, out) {
    out.columns = r.required('columns', columnSpec);
    out.filter = r.required('filter', boolExpJson);
    const check = r.optional('check', boolExpJson);
    if (check) out.check = check;
    const set = r.optional('set', obj);
    if (set && Object.keys(set).length > 0) out.set = set;
    mutationExtras(r, out);
  },
  delete(r, out) {
    out.filter = r.required('filter', boolExpJson);
    mutationExtras(r, out);
  },
};

function mutationExtras(r: ObjectReader, out: JsonObject): void {
  if (r.withDefault('backend_only', bool, false)) out.backend_only = true;
  const validate = r.optional('validate_input', obj);
  if (validate) out.validate_input = validate;
}

/** A permission body of the given kind, in stored form. */
export function permissionBody(kind: PermissionKind) {
  return (v: unknown, path: string): JsonObject => {
    const r = ObjectReader.of(v, path);
    const out: JsonObject = {};
    BODY_READERS[kind](r, out);
    r.done();
    return out;
  };
}

/** A stored permission `{role, permission, comment?}` (replace_metadata input); `body` reads its permission. */
function permissionEntry(body: (v: unknown, path: string) => JsonObject) {
  return (v: unknown, path: string): JsonObject => {
    const r = ObjectReader.of(v, path);
    const role = r.required('role', nonEmptyStr);
    const permission = r.required('permission', body);
    const comment = r.optional('comment', str);
    r.done();
    return { role, permission, ...(comment !== undefined ? { comment } : {}) };
  };
}

/**
 * A table's stored permissions of one kind (replace_metadata input). Roles are mostly given
 * the same body word for word: a body that is the same JSON as the one before it is that
 * one's stored form, read once (220,000 bodies read took 0.3 s of 0.8 at 5,000 tables × 11
 * roles). The one before decoded without error, so an equal one would too. In a list whose
 * roles have bodies of their own the comparison stops at the first that differs: comparing
 * each body's conditions with the one before cost more than reading it (0.25 s at 500 tables
 * × 100 roles).
 */
export function permissionEntries(kind: PermissionKind) {
  const read = permissionBody(kind);
  return (v: unknown, path: string): JsonObject[] => {
    let last: { raw: unknown; body: JsonObject } | null = null;
    let compare = true;
    const body = (x: unknown, p: string): JsonObject => {
      if (last !== null && compare) {
        if (sameJson(last.raw, x)) return last.body;
        compare = false;
      }
      last = { raw: x, body: read(x, p) };
      return last.body;
    };
    return arrayOf(permissionEntry(body))(v, path);
  };
}

/**
 * The names a permission grants are the body's own list, or one list per table for `'*'` and
 * none: roles granted the same columns share it, and what is derived from it (role-permissions.ts).
 */
const NONE: string[] = Object.freeze([]) as unknown as string[];
const NO_PRESETS: JsonObject = Object.freeze({});
const everyName = new WeakMap<ReadonlyMap<string, unknown>, string[]>();
function allNames(names: ReadonlyMap<string, unknown>): string[] {
  let all = everyName.get(names);
  if (!all) everyName.set(names, (all = [...names.keys()]));
  return all;
}

function columnNames(table: ResolvedTable, spec: Json | undefined, path: string): string[] {
  if (spec === undefined || spec === '*') return allNames(table.columns);
  const names = spec as string[];
  names.forEach((c, i) => requireColumn(table, c, `${path}[${i}]`));
  return names;
}

function requireColumn(table: ResolvedTable, name: string, path: string): void {
  if (table.columns.has(name)) return;
  const kind = table.relationships.has(name) ? 'relationship' : table.computedFields.has(name) ? 'computed field' : null;
  if (!kind) throw badRequest('not-exists', `column ${JSON.stringify(name)} does not exist`, path);
  throw badRequest(
    'unexpected-payload',
    `expecting a postgres column; but, ${JSON.stringify(name)} is a ${kind}; permissions for relationships are automatically inferred`,
    path,
  );
}

function computedFieldNames(table: ResolvedTable, names: Json | undefined, path: string): string[] {
  const list = (names ?? NONE) as string[];
  list.forEach((name, i) => {
    const at = `${path}[${i}]`;
    const cf = table.computedFields.get(name);
    if (!cf) throw badRequest('not-exists', `computed field ${JSON.stringify(name)} does not exist`, at);
    if (cf.returns.kind === 'table') {
      throw badRequest(
        'not-supported',
        `select permissions on computed field ${JSON.stringify(name)} are auto-derived from the permissions on its returning table and cannot be specified manually`,
        at,
      );
    }
  });
  return list;
}

/** `set`: each column exists and each value fits its type (or is a session variable). */
function presets(table: ResolvedTable, set: Json | undefined, path: string): Record<string, Json> {
  const values = (set ?? NO_PRESETS) as JsonObject;
  for (const [name, value] of Object.entries(values)) {
    const at = keyPath(path, name);
    requireColumn(table, name, at);
    if (!sessionVariable(value)) checkLiteral(table.columns.get(name)!.type, value, at);
  }
  return values;
}

/**
 * Checks a stored permission body against its table; throws an ApiError with the path of the
 * problem. `parsed`: the expressions the table's other permissions parsed (shared with them).
 */
export function resolvePermission(
  kind: PermissionKind,
  body: JsonObject,
  table: ResolvedTable,
  scope: BoolExpScope,
  path: string,
  parsed: ParsedExpressions | null = null,
): ResolvedPermission {
  const expr = (key: 'filter' | 'check') => (body[key] === undefined ? null : parseBoolExp(body[key], table, scope, `${path}.${key}`, parsed));
  return {
    kind,
    columns: kind === 'delete' ? NONE : columnNames(table, body.columns, `${path}.columns`),
    // `columns: '*'` on a select permission also grants every computed field, as the well-known engine does.
    computedFields:
      kind === 'select' && body.columns === '*' ? allNames(table.computedFields) : computedFieldNames(table, body.computed_fields, `${path}.computed_fields`),
    filter: expr('filter'),
    check: expr('check'),
    set: presets(table, body.set, `${path}.set`),
    limit: typeof body.limit === 'number' ? body.limit : null,
    allowAggregations: body.allow_aggregations === true,
    queryRootFields: (body.query_root_fields as string[] | undefined) ?? null,
    subscriptionRootFields: (body.subscription_root_fields as string[] | undefined) ?? null,
    backendOnly: body.backend_only === true,
  };
}
