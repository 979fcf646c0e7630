/**
 * The deprecated `select` and `count` operations: rows of one table as JSON objects
 * (PostgreSQL's own JSON rendering of each type), or how many rows match.
 */
import { badRequest } from '../../../protocol/errors.js';
import { arrayOf, int, isObject, ObjectReader, oneOf, str } from '../../../util/decode.js';
import { ident, join, literal, raw, sql, type Sql } from '../../../sql/fragment.js';
import { aliasedTable, column, type DmlTarget } from './target.js';

/** `["id", "name"]` or `"*"` items; relationship objects are not supported here. */
function selectedColumns(target: DmlTarget, v: unknown, path: string): Sql[] {
  return arrayOf((item, p) => {
    if (isObject(item)) throw badRequest('not-supported', 'selecting relationships is not supported by the deprecated select operation; use the GraphQL API', p);
    const name = str(item, p);
    return name === '*' ? target.table.columns.map((c) => ident(c.name)) : [ident(column(target, name, p).name)];
  })(v, path).flat();
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

/** One row with column `rows`: the JSON array of the selected rows, in order. */
export function selectStatement(target: DmlTarget, r: ObjectReader): Sql {
  const columns = r.required('columns', (v, p) => selectedColumns(target, v, p));
  const where = whereClause(target, r);
  const order = r.optional('order_by', (v, p) => (Array.isArray(v) ? arrayOf((x, q) => orderItem(target, x, q))(v, p) : [orderItem(target, v, p)]));
  const limit = r.optional('limit', nonNegative);
  const offset = r.optional('offset', nonNegative);
  r.done();
  const tail = [
    order && order.length > 0 ? sql` ORDER BY ${join(order, ', ')}` : raw(''),
    limit !== undefined ? sql` LIMIT ${literal(limit)}` : raw(''),
    offset !== undefined ? sql` OFFSET ${literal(offset)}` : raw(''),
  ];
  const rows = sql`SELECT ${join(columns, ', ')} FROM ${aliasedTable(target)}${where}${join(tail, '')}`;
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
