/**
 * The deprecated `insert`, `update` and `delete` operations. Each statement answers
 * one row: `affected_rows` and, when `returning` names columns, `returning` (the
 * changed rows as JSON objects).
 */
import { badRequest, parseFailed } from '../../../errors/admin.js';
import { arrayOf, keyPath, ObjectReader, oneOf, str, type JsonObject } from '../../../util/decode.js';
import { ident, join, raw, sql, type Sql } from '../../../sql/fragment.js';
import type { CatalogColumn } from '../../../catalog/types.js';
import { aliasedTable, column, tableSql, type DmlTarget } from './target.js';
import { columnValue } from './values.js';
import { whereClause } from './select.js';

/** Wraps a data-modifying statement (`... RETURNING *`) so it answers the counts and rows. */
function answer(statement: Sql, returning: Sql[] | undefined): Sql {
  const rows = returning
    ? sql`, (SELECT coalesce(json_agg(row_to_json("r")), '[]'::json) FROM (SELECT ${join(returning, ', ')} FROM "changed") AS "r") AS "returning"`
    : raw('');
  return sql`WITH "changed" AS (${statement} RETURNING *) SELECT (SELECT count(*) FROM "changed") AS "affected_rows"${rows}`;
}

const returningColumns = (target: DmlTarget, r: ObjectReader) =>
  r.optional('returning', arrayOf((v, p) => ident(column(target, str(v, p), p).name)));

/** `ON CONFLICT`: `{constraint, action: ignore|update}` (update sets the inserted columns). */
function onConflict(target: DmlTarget, v: unknown, path: string, inserted: CatalogColumn[]): Sql {
  const r = ObjectReader.of(v, path);
  const constraint = r.required('constraint', str);
  const action = r.withDefault('action', oneOf(['ignore', 'update'] as const, 'on_conflict action'), 'ignore');
  r.done();
  const known = [target.table.primaryKey, ...target.table.uniqueConstraints].some((c) => c?.name === constraint);
  if (!known) throw badRequest('not-exists', `constraint ${JSON.stringify(constraint)} does not exist`, r.at('constraint'));
  const on = sql` ON CONFLICT ON CONSTRAINT ${ident(constraint)}`;
  if (action === 'ignore' || inserted.length === 0) return sql`${on} DO NOTHING`;
  return sql`${on} DO UPDATE SET ${join(inserted.map((c) => sql`${ident(c.name)} = EXCLUDED.${ident(c.name)}`), ', ')}`;
}

export function insertStatement(target: DmlTarget, r: ObjectReader): Sql {
  const objects = r.required('objects', arrayOf((v, p) => ObjectReader.of(v, p).value));
  if (objects.length === 0) throw badRequest('parse-failed', 'objects must not be empty', r.at('objects'));
  const returning = returningColumns(target, r);
  // Every column any object names; an object that leaves one out gets its DEFAULT.
  const names = [...new Set(objects.flatMap((o) => Object.keys(o)))];
  const columns = names.map((n) => {
    const i = objects.findIndex((o) => n in o);
    return column(target, n, keyPath(`${r.at('objects')}[${i}]`, n));
  });
  const conflict = r.optional('on_conflict', (v, p) => onConflict(target, v, p, columns));
  r.done();
  let statement: Sql;
  if (columns.length === 0) {
    if (objects.length > 1) throw badRequest('not-supported', 'several objects without columns cannot be inserted at once', r.at('objects'));
    statement = sql`INSERT INTO ${tableSql(target)} DEFAULT VALUES`;
  } else {
    const rows = objects.map((o: JsonObject) => sql`(${join(columns.map((c) => (c.name in o ? columnValue(target, c, o[c.name]) : raw('DEFAULT'))), ', ')})`);
    statement = sql`INSERT INTO ${tableSql(target)} (${join(columns.map((c) => ident(c.name)), ', ')}) VALUES ${join(rows, ', ')}`;
  }
  return answer(conflict ? sql`${statement}${conflict}` : statement, returning);
}

/** `$set`, `$inc`, `$mul` (column → value) and `$default` (columns) of an update. */
function assignments(target: DmlTarget, r: ObjectReader): Sql[] {
  const out: Sql[] = [];
  const each = (key: string, make: (c: CatalogColumn, value: unknown) => Sql) =>
    r.optional(key, (v, p) => {
      const o = ObjectReader.of(v, p);
      for (const [name, value] of Object.entries(o.value)) out.push(sql`${ident(name)} = ${make(column(target, name, o.at(name)), value)}`);
    });
  each('$set', (c, v) => columnValue(target, c, v));
  each('$inc', (c, v) => sql`${ident(c.name)} + ${columnValue(target, c, v)}`);
  each('$mul', (c, v) => sql`${ident(c.name)} * ${columnValue(target, c, v)}`);
  r.optional('$default', arrayOf((v, p) => out.push(sql`${ident(column(target, str(v, p), p).name)} = DEFAULT`)));
  return out;
}

/** Update and delete need a `where` (`{}` for every row), so a forgotten one changes nothing. */
function requireWhere(r: ObjectReader): void {
  if (!r.has('where')) throw parseFailed('key "where" not found', r.path);
}

export function updateStatement(target: DmlTarget, r: ObjectReader): Sql {
  requireWhere(r);
  const where = whereClause(target, r);
  const set = assignments(target, r);
  const returning = returningColumns(target, r);
  r.done();
  if (set.length === 0) throw badRequest('parse-failed', 'atleast one of $set, $inc, $mul and $default has to be present', r.path);
  return answer(sql`UPDATE ${aliasedTable(target)} SET ${join(set, ', ')}${where}`, returning);
}

export function deleteStatement(target: DmlTarget, r: ObjectReader): Sql {
  requireWhere(r);
  const where = whereClause(target, r);
  const returning = returningColumns(target, r);
  r.done();
  return answer(sql`DELETE FROM ${aliasedTable(target)}${where}`, returning);
}
