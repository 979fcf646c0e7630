/**
 * The deprecated `select` and `count` operations: rows of one table as JSON objects
 * (PostgreSQL's own JSON rendering of each type), with related rows nested, or how many rows match.
 */
import { badRequest } from '../../../errors/admin.js';
import { arrayOf, int, isObject, ObjectReader, oneOf, str } from '../../../util/decode.js';
import { ident, join, literal, raw, sql, type Sql } from '../../../sql/fragment.js';
import { aliasedTable, column, type DmlTarget } from './target.js';
import { and, joinCondition } from '../translate/boolexp.js';
import { col } from '../translate/context.js';

/**
 * A select list: `"*"`, column names, and relationship objects `{name, columns, where?,
 * order_by?, limit?, offset?}` (paging and ordering for array relationships), each a JSON
 * value built by a subquery on the related rows, named after the relationship.
 */
function selectList(target: DmlTarget, v: unknown, path: string): Sql[] {
  return arrayOf((item, p) => {
    if (isObject(item)) return [relationshipSelect(target, item, p)];
    const name = str(item, p);
    const columns = name === '*' ? target.table.columns : [column(target, name, p)];
    return columns.map((c) => sql`${col(target.scope, c.name)} AS ${ident(c.name)}`);
  })(v, path).flat();
}

function relationshipSelect(outer: DmlTarget, item: unknown, path: string): Sql {
  const r = ObjectReader.of(item, path);
  const name = r.required('name', str);
  const { kind, mapping, target } = outer.related(name, r.at('name'));
  const columns = r.required('columns', (v, p) => selectList(target, v, p));
  const conds = [joinCondition(outer.scope, target.scope, mapping)];
  const where = r.optional('where', (v, p) => target.where(v, p));
  if (where) conds.push(where);
  const tail = kind === 'array' ? paging(target, r) : raw(' LIMIT 1');
  r.done();
  const rows = sql`SELECT ${join(columns, ', ')} FROM ${aliasedTable(target)} WHERE ${and(conds)}${tail}`;
  const json = kind === 'array' ? raw(`coalesce(json_agg(row_to_json("r")), '[]'::json)`) : raw('row_to_json("r")');
  return sql`(SELECT ${json} FROM (${rows}) AS "r") AS ${ident(name)}`;
}

/** `"+col"`, `"-col"`, `"col"`, or `{column, type: asc|desc, nulls: first|last}`; one or a list. */
function orderItem(target: DmlTarget, v: unknown, path: string): Sql {
  if (typeof v === 'string') {
    const desc = v.startsWith('-');
    const name = v.startsWith('-') || v.startsWith('+') ? v.slice(1) : v;
    return sql`${ident(column(target, name, path).name)} ${raw(desc ? 'DESC' : 'ASC')}`;
  }
  const r = ObjectReader.of(v, path);
  const name = r.required('column', str);
  const direction = r.withDefault('type', oneOf(['asc', 'desc'] as const, 'order type'), 'asc');
  const nulls = r.optional('nulls', oneOf(['first', 'last'] as const, 'nulls order'));
  r.done();
  const order = `${direction.toUpperCase()}${nulls ? ` NULLS ${nulls.toUpperCase()}` : ''}`;
  return sql`${ident(column(target, name, r.at('column')).name)} ${raw(order)}`;
}

const nonNegative = (v: unknown, path: string) => {
  const n = int(v, path);
  if (n < 0) throw badRequest('not-supported', 'unexpected negative value', path);
  return n;
};

export const whereClause = (target: DmlTarget, r: ObjectReader): Sql => {
  const where = r.optional('where', (v, p) => target.where(v, p));
  return where ? sql` WHERE ${where}` : raw('');
};

/** ` ORDER BY ... LIMIT ... OFFSET ...` from `order_by`, `limit` and `offset`. */
function paging(target: DmlTarget, r: ObjectReader): Sql {
  const order = r.optional('order_by', (v, p) => (Array.isArray(v) ? arrayOf((x, q) => orderItem(target, x, q))(v, p) : [orderItem(target, v, p)]));
  const limit = r.optional('limit', nonNegative);
  const offset = r.optional('offset', nonNegative);
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
  const columns = r.required('columns', (v, p) => selectList(target, v, p));
  const where = whereClause(target, r);
  const tail = paging(target, r);
  r.done();
  const rows = sql`SELECT ${join(columns, ', ')} FROM ${aliasedTable(target)}${where}${tail}`;
  return sql`SELECT coalesce(json_agg(row_to_json("r")), '[]'::json) AS "rows" FROM (${rows}) AS "r"`;
}

/** One row with column `count`; `distinct` counts distinct combinations of those columns. */
export function countStatement(target: DmlTarget, r: ObjectReader): Sql {
  const distinct = r.optional('distinct', arrayOf((v, p) => ident(column(target, str(v, p), p).name)));
  const where = whereClause(target, r);
  r.done();
  const rows = distinct && distinct.length > 0 ? sql`SELECT DISTINCT ${join(distinct, ', ')} FROM ${aliasedTable(target)}${where}` : sql`SELECT FROM ${aliasedTable(target)}${where}`;
  return sql`SELECT count(*) AS "count" FROM (${rows}) AS "r"`;
}
