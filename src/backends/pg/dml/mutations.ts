/**
 * The deprecated `insert`, `update` and `delete` operations. Each statement answers
 * one row: `affected_rows`, `check` (whether every changed row passes the permission's
 * check) and, when `returning` names columns, `returning` (the changed rows as JSON objects).
 * A role writes the columns its permission grants, gets its presets, changes only the rows its
 * filter lets through and returns only columns it may select (`Hasura.RQL.DML.Insert`, `Update`, `Delete`).
 */
import { badRequest, parseFailed } from '../../../errors/admin.js';
import { arrayOf, keyPath, ObjectReader, oneOf, str, type JsonObject } from '../../../util/decode.js';
import { isTrue, TRUE, type BoolExp, type Value } from '../../../ir/boolexp.js';
import type { SelectPermission, UpdatePermission } from '../../../metadata/resolve/role-permissions.js';
import { ident, join, raw, sql, type Sql } from '../../../sql/fragment.js';
import type { CatalogColumn } from '../../../catalog/types.js';
import { aliasedTable, column, outputColumn, readable, type DmlTarget } from './target.js';
import { columnValue } from './values.js';
import { whereClause } from './select.js';

/** Wraps a data-modifying statement on `target`'s alias so it answers the counts, the check and the rows. */
function answer(target: DmlTarget, statement: Sql, check: BoolExp, returning: Sql[] | undefined): Sql {
  const holds = isTrue(check) ? raw('true') : target.condition(check);
  // The changed rows under the statement's alias: returned columns an inherited role sees conditionally read their condition there.
  const rows = returning
    ? sql`, (SELECT coalesce(json_agg(row_to_json("r")), '[]'::json) FROM (SELECT ${join(returning, ', ')} FROM "changed" AS ${target.scope.alias}) AS "r") AS "returning"`
    : raw('');
  return sql`WITH "changed" AS (${statement} RETURNING *, ${holds} AS "__check") SELECT (SELECT count(*) FROM "changed") AS "affected_rows", (SELECT coalesce(bool_and("__check"), true) FROM "changed") AS "check"${rows}`;
}

/** `returning`: columns the caller may select (`permission`, asked for only when `returning` is there). */
function returningColumns(target: DmlTarget, r: ObjectReader, permission: () => SelectPermission): Sql[] | undefined {
  if (!r.has('returning')) return undefined;
  const granted = permission();
  return r.optional('returning', arrayOf((v, p) => outputColumn(target, granted, readable(target, granted, str(v, p), p).name)));
}

/** A permission's presets as `[column, value]` (their columns exist: the permission resolved). */
const presets = (target: DmlTarget, set: ReadonlyMap<string, Value>): [CatalogColumn, Sql][] =>
  [...set].map(([name, v]) => {
    const c = column(target, name, '$');
    return [c, target.preset(v, c)];
  });

/**
 * `ON CONFLICT`: `{constraint, action: ignore|update}` (update sets the inserted columns). It may
 * update existing rows, so it needs the update permission: its columns, presets and filter apply.
 */
function onConflict(target: DmlTarget, v: unknown, path: string, inserted: CatalogColumn[]): Sql {
  const r = ObjectReader.of(v, path);
  const constraint = r.required('constraint', str);
  const action = r.withDefault('action', oneOf(['ignore', 'update'] as const, 'on_conflict action'), 'ignore');
  r.done();
  const update: UpdatePermission = target.permissions.upsert(target.resolved, path);
  const known = [target.table.primaryKey, ...target.table.uniqueConstraints].some((c) => c?.name === constraint);
  if (!known) throw badRequest('not-exists', `constraint ${JSON.stringify(constraint)} does not exist`, r.at('constraint'));
  const on = sql` ON CONFLICT ON CONSTRAINT ${ident(constraint)}`;
  if (action === 'ignore' || inserted.length === 0) return sql`${on} DO NOTHING`;
  for (const c of inserted) target.permissions.column('update', update.columns, c.name, path);
  const sets = [
    ...inserted.filter((c) => !update.set.has(c.name)).map((c) => sql`${ident(c.name)} = EXCLUDED.${ident(c.name)}`),
    ...presets(target, update.set).map(([c, value]) => sql`${ident(c.name)} = ${value}`),
  ];
  const where = isTrue(update.filter) ? raw('') : sql` WHERE ${target.condition(update.filter)}`;
  return sql`${on} DO UPDATE SET ${join(sets, ', ')}${where}`;
}

export function insertStatement(target: DmlTarget, r: ObjectReader): Sql {
  const permission = target.permissions.insert(target.resolved, r.path);
  const objects = r.required('objects', arrayOf((v, p) => ObjectReader.of(v, p).value));
  if (objects.length === 0) throw badRequest('parse-failed', 'objects must not be empty', r.at('objects'));
  const returning = returningColumns(target, r, () => target.permissions.select(target.resolved, r.path, 'returning'));
  // Every column any object names; an object that leaves one out gets its DEFAULT.
  const names = [...new Set(objects.flatMap((o) => Object.keys(o)))];
  const columns = names.map((n) => {
    const path = keyPath(`${r.at('objects')}[${objects.findIndex((o) => n in o)}]`, n);
    if (permission.set.has(n)) target.permissions.preset('insert', n, path);
    target.permissions.column('insert', permission.columns, n, path);
    return column(target, n, path);
  });
  const conflict = r.optional('on_conflict', (v, p) => onConflict(target, v, p, columns));
  r.done();
  const preset = presets(target, permission.set);
  let statement: Sql;
  if (columns.length + preset.length === 0) {
    if (objects.length > 1) throw badRequest('not-supported', 'several objects without columns cannot be inserted at once', r.at('objects'));
    statement = sql`INSERT INTO ${aliasedTable(target)} DEFAULT VALUES`;
  } else {
    const given = (o: JsonObject) => columns.map((c) => (c.name in o ? columnValue(target, c, o[c.name]) : raw('DEFAULT')));
    const rows = objects.map((o: JsonObject) => sql`(${join([...given(o), ...preset.map(([, value]) => value)], ', ')})`);
    const names = [...columns, ...preset.map(([c]) => c)].map((c) => ident(c.name));
    statement = sql`INSERT INTO ${aliasedTable(target)} (${join(names, ', ')}) VALUES ${join(rows, ', ')}`;
  }
  return answer(target, conflict ? sql`${statement}${conflict}` : statement, permission.check, returning);
}

/** `$set`, `$inc`, `$mul` (column → value) and `$default` (columns) of an update, on the columns `permission` grants. */
function assignments(target: DmlTarget, r: ObjectReader, permission: UpdatePermission): Sql[] {
  const out: Sql[] = [];
  const updatable = (name: string, path: string) => {
    if (permission.set.has(name)) target.permissions.preset('update', name, path);
    target.permissions.column('update', permission.columns, name, path);
    return column(target, name, path);
  };
  const each = (key: string, make: (c: CatalogColumn, value: unknown) => Sql) =>
    r.optional(key, (v, p) => {
      const o = ObjectReader.of(v, p);
      for (const [name, value] of Object.entries(o.value)) out.push(sql`${ident(name)} = ${make(updatable(name, o.at(name)), value)}`);
    });
  each('$set', (c, v) => columnValue(target, c, v));
  each('$inc', (c, v) => sql`${ident(c.name)} + ${columnValue(target, c, v)}`);
  each('$mul', (c, v) => sql`${ident(c.name)} * ${columnValue(target, c, v)}`);
  r.optional('$default', arrayOf((v, p) => out.push(sql`${ident(updatable(str(v, p), p).name)} = DEFAULT`)));
  return out;
}

/** Update and delete need a `where` (`{}` for every row), so a forgotten one changes nothing. */
function requireWhere(r: ObjectReader): void {
  if (!r.has('where')) throw parseFailed('key "where" not found', r.path);
}

export function updateStatement(target: DmlTarget, r: ObjectReader): Sql {
  requireWhere(r);
  const permission = target.permissions.update(target.resolved, r.path);
  // `where` and `returning` read columns: the select permission is needed too.
  const selectable = target.permissions.select(target.resolved, r.path, 'update');
  const where = whereClause(target, r, permission.filter);
  const set = assignments(target, r, permission);
  const returning = returningColumns(target, r, () => selectable);
  r.done();
  if (set.length === 0) throw badRequest('parse-failed', 'atleast one of $set, $inc, $mul and $default has to be present', r.path);
  const all = [...set, ...presets(target, permission.set).map(([c, value]) => sql`${ident(c.name)} = ${value}`)];
  return answer(target, sql`UPDATE ${aliasedTable(target)} SET ${join(all, ', ')}${where}`, permission.check, returning);
}

export function deleteStatement(target: DmlTarget, r: ObjectReader): Sql {
  requireWhere(r);
  const permission = target.permissions.delete(target.resolved, r.path);
  const selectable = target.permissions.select(target.resolved, r.path, 'delete');
  const where = whereClause(target, r, permission.filter);
  const returning = returningColumns(target, r, () => selectable);
  r.done();
  return answer(target, sql`DELETE FROM ${aliasedTable(target)}${where}`, TRUE, returning);
}
