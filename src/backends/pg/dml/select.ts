/**
 * The deprecated `select` and `count` operations: rows of one table as JSON objects
 * (PostgreSQL's own JSON rendering of each type), with related rows nested, or how many rows match.
 * A role reads the columns and rows its select permissions grant, up to their limits, on the
 * table and on every table a relationship reaches (the well-known engine's `Hasura.RQL.DML.Select`).
 */
import { badRequest } from '../../../errors/admin.js';
import { arrayOf, int, isObject, ObjectReader, oneOf, str } from '../../../util/decode.js';
import { isTrue, type BoolExp } from '../../../ir/boolexp.js';
import type { SelectPermission } from '../../../metadata/resolve/role-permissions.js';
import { ident, join, literal, raw, sql, type Sql } from '../../../sql/fragment.js';
import { aliasedTable, outputColumn, readable, readValue, type DmlTarget } from './target.js';
import { and, joinCondition } from '../translate/boolexp.js';

/**
 * A select list: `"*"` (the columns the caller may read), column names, and relationship objects
 * `{name, columns, where?, order_by?, limit?, offset?}` (paging and ordering for array
 * relationships), each a JSON value built by a subquery on the related rows, named after the relationship.
 */
function selectList(target: DmlTarget, permission: SelectPermission, v: unknown, path: string): Sql[] {
  return arrayOf((item, p) => {
    if (isObject(item)) return [relationshipSelect(target, item, p)];
    const name = str(item, p);
    const names = name === '*' ? target.table.columns.map((c) => c.name).filter((c) => permission.columns.has(c)) : [readable(target, permission, name, p).name];
    return names.map((c) => outputColumn(target, permission, c));
  })(v, path).flat();
}

function relationshipSelect(outer: DmlTarget, item: unknown, path: string): Sql {
  const r = ObjectReader.of(item, path);
  const name = r.required('name', str);
  const { kind, mapping, target } = outer.related(name, r.at('name'));
  const permission = target.permissions.related(name, target.resolved, path);
  const columns = r.required('columns', (v, p) => selectList(target, permission, v, p));
  const conds = [joinCondition(outer.scope, target.scope, mapping), ...conditions(target, r, permission.filter)];
  const tail = kind === 'array' ? paging(target, permission, r) : raw(' LIMIT 1');
  r.done();
  const rows = sql`SELECT ${join(columns, ', ')} FROM ${aliasedTable(target)} WHERE ${and(conds)}${tail}`;
  const json = kind === 'array' ? raw(`coalesce(json_agg(row_to_json("r")), '[]'::json)`) : raw('row_to_json("r")');
  return sql`(SELECT ${json} FROM (${rows}) AS "r") AS ${ident(name)}`;
}

/** `"+col"`, `"-col"`, `"col"`, or `{column, type: asc|desc, nulls: first|last}`; one or a list. */
function orderItem(target: DmlTarget, permission: SelectPermission, v: unknown, path: string): Sql {
  const value = (name: string, p: string) => readValue(target, permission, readable(target, permission, name, p).name);
  if (typeof v === 'string') {
    const desc = v.startsWith('-');
    const name = v.startsWith('-') || v.startsWith('+') ? v.slice(1) : v;
    return sql`${value(name, path)} ${raw(desc ? 'DESC' : 'ASC')}`;
  }
  const r = ObjectReader.of(v, path);
  const name = r.required('column', str);
  const direction = r.withDefault('type', oneOf(['asc', 'desc'] as const, 'order type'), 'asc');
  const nulls = r.optional('nulls', oneOf(['first', 'last'] as const, 'nulls order'));
  r.done();
  const order = `${direction.toUpperCase()}${nulls ? ` NULLS ${nulls.toUpperCase()}` : ''}`;
  return sql`${value(name, r.at('column'))} ${raw(order)}`;
}

const nonNegative = (v: unknown, path: string) => {
  const n = int(v, path);
  if (n < 0) throw badRequest('not-supported', 'unexpected negative value', path);
  return n;
};

/** The `where` argument and the permission's `filter` (left out when it lets every row through). */
function conditions(target: DmlTarget, r: ObjectReader, filter: BoolExp): Sql[] {
  const where = r.optional('where', (v, p) => target.where(v, p));
  return [...(where ? [where] : []), ...(isTrue(filter) ? [] : [target.condition(filter)])];
}

export const whereClause = (target: DmlTarget, r: ObjectReader, filter: BoolExp): Sql => {
  const conds = conditions(target, r, filter);
  return conds.length > 0 ? sql` WHERE ${and(conds)}` : raw('');
};

/** ` ORDER BY ... LIMIT ... OFFSET ...` from `order_by`, `limit` and `offset`; the permission's limit caps `limit`. */
function paging(target: DmlTarget, permission: SelectPermission, r: ObjectReader): Sql {
  const order = r.optional('order_by', (v, p) => (Array.isArray(v) ? arrayOf((x, q) => orderItem(target, permission, x, q))(v, p) : [orderItem(target, permission, v, p)]));
  const asked = r.optional('limit', nonNegative);
  const offset = r.optional('offset', nonNegative);
  const cap = permission.limit;
  const limit = asked === undefined ? (cap ?? undefined) : cap === null ? asked : Math.min(asked, cap);
  return join(
    [
      order && order.length > 0 ? sql` ORDER BY ${join(order, ', ')}` : raw(''),
      limit !== undefined ? sql` LIMIT ${literal(limit)}` : raw(''),
      offset !== undefined ? sql` OFFSET ${literal(offset)}` : raw(''),
    ],
    '',
  );
}

/** One row with column `rows`: the JSON array of the selected rows, in order. */
export function selectStatement(target: DmlTarget, r: ObjectReader): Sql {
  const permission = target.permissions.select(target.resolved, r.path);
  const columns = r.required('columns', (v, p) => selectList(target, permission, v, p));
  const where = whereClause(target, r, permission.filter);
  const tail = paging(target, permission, r);
  r.done();
  const rows = sql`SELECT ${join(columns, ', ')} FROM ${aliasedTable(target)}${where}${tail}`;
  return sql`SELECT coalesce(json_agg(row_to_json("r")), '[]'::json) AS "rows" FROM (${rows}) AS "r"`;
}

/**
 * One row with column `count`; `distinct` counts distinct combinations of those columns. A role
 * counts the rows its select permission's filter lets through (its limit does not apply, as in
 * the well-known engine's `Hasura.RQL.DML.Count`).
 */
export function countStatement(target: DmlTarget, r: ObjectReader): Sql {
  const permission = target.permissions.select(target.resolved, r.path, 'count');
  const distinct = r.optional('distinct', arrayOf((v, p) => readValue(target, permission, readable(target, permission, str(v, p), p).name)));
  const where = whereClause(target, r, permission.filter);
  r.done();
  const rows = distinct && distinct.length > 0 ? sql`SELECT DISTINCT ${join(distinct, ', ')} FROM ${aliasedTable(target)}${where}` : sql`SELECT FROM ${aliasedTable(target)}${where}`;
  return sql`SELECT count(*) AS "count" FROM (${rows}) AS "r"`;
}
