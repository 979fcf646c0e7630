/**
 * The deprecated API's boolean expressions (`where` of select, count, update, delete)
 * over one table's columns: `{col: value}` (equality), `{col: {$op: value}}`, and
 * `$and`/`$or`/`$not`; every operator is also accepted with `_` instead of `$`.
 */
import { badRequest } from '../../../protocol/errors.js';
import { arrayOf, bool, isObject, ObjectReader, str } from '../../../util/decode.js';
import { ident, join, param, raw, sql, type Sql } from '../../../sql/fragment.js';
import type { PgColumn } from '../catalog.js';
import { column, type DmlTarget } from './target.js';
import { columnValue, columnValues } from './values.js';

const COMPARE: Record<string, string> = {
  eq: '=', ne: '<>', neq: '<>', gt: '>', lt: '<', gte: '>=', lte: '<=',
  like: 'LIKE', nlike: 'NOT LIKE', ilike: 'ILIKE', nilike: 'NOT ILIKE', similar: 'SIMILAR TO', nsimilar: 'NOT SIMILAR TO',
  contains: '@>', contained_in: '<@',
};
const COMPARE_COLUMN: Record<string, string> = { ceq: '=', cne: '<>', cneq: '<>', cgt: '>', clt: '<', cgte: '>=', clte: '<=' };
const HAS_KEYS: Record<string, string> = { has_keys_any: '?|', has_keys_all: '?&' };

/** `$eq` and `_eq` name the same operator. */
const operatorName = (key: string) => (key.startsWith('$') || key.startsWith('_') ? key.slice(1) : null);

const TRUE = raw('TRUE');
const and = (items: Sql[]) => (items.length === 0 ? TRUE : sql`(${join(items, ' AND ')})`);

function comparison(target: DmlTarget, c: PgColumn, op: string, value: unknown, path: string): Sql {
  const col = ident(c.name);
  const symbol = COMPARE[op];
  if (symbol) return sql`${col} ${raw(symbol)} ${columnValue(target, c, value)}`;
  const columnSymbol = COMPARE_COLUMN[op];
  if (columnSymbol) return sql`${col} ${raw(columnSymbol)} ${ident(column(target, str(value, path), path).name)}`;
  const keys = HAS_KEYS[op];
  if (keys) return sql`${col} ${raw(keys)} ${param(arrayOf(str)(value, path))}::text[]`;
  switch (op) {
    case 'in':
      return sql`${col} = ANY(${columnValues(target, c, arrayOf((x) => x)(value, path))})`;
    case 'nin':
      return sql`NOT (${col} = ANY(${columnValues(target, c, arrayOf((x) => x)(value, path))}))`;
    case 'is_null':
      return bool(value, path) ? sql`${col} IS NULL` : sql`${col} IS NOT NULL`;
    case 'has_key':
      return sql`${col} ? ${param(str(value, path))}::text`;
  }
  throw badRequest('parse-failed', `unknown operator ${JSON.stringify(`$${op}`)} for column ${JSON.stringify(c.name)}`, path);
}

function columnCondition(target: DmlTarget, name: string, value: unknown, path: string): Sql {
  const c = column(target, name, path);
  const ops = isObject(value) ? Object.keys(value) : [];
  // A plain value (or an object without operators, e.g. for a json column) means equality.
  if (ops.length === 0 || !ops.every((k) => operatorName(k) !== null)) return comparison(target, c, 'eq', value, path);
  const r = ObjectReader.of(value, path);
  return and(ops.map((k) => comparison(target, c, operatorName(k)!, r.value[k], r.at(k))));
}

export function whereSql(target: DmlTarget, v: unknown, path: string): Sql {
  const r = ObjectReader.of(v, path, 'BoolExp');
  return and(
    Object.keys(r.value).map((key) => {
      const p = r.at(key);
      switch (key) {
        case '$and':
        case '_and':
          return and(arrayOf((x, q) => whereSql(target, x, q))(r.value[key], p));
        case '$or':
        case '_or': {
          const items = arrayOf((x, q) => whereSql(target, x, q))(r.value[key], p);
          return items.length === 0 ? raw('FALSE') : sql`(${join(items, ' OR ')})`;
        }
        case '$not':
        case '_not':
          return sql`NOT ${whereSql(target, r.value[key], p)}`;
        default:
          return columnCondition(target, key, r.value[key], p);
      }
    }),
  );
}
