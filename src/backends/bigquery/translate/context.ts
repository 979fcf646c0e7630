/** What the BigQuery translator shares: aliases, bound values, the boolean-expression dialect, refusals. */
import type { CatalogType } from '../../../catalog/types.js';
import { literal, paramFrom, raw, sql, type Sql } from '../../../sql/fragment.js';
import type { Value } from '../../../ir/boolexp.js';
import type { BoolExpDialect } from '../../../sql/boolexp-compiler.js';
import { qualifiedColumn, type Scope } from '../../../sql/scope.js';
import { notSupportedBy } from '../../backend.js';
import { backtick, backtickQualified } from '../dialect.js';

export type { Scope } from '../../../sql/scope.js';

export const col = qualifiedColumn(backtick);

export const notSupported = notSupportedBy('bigquery');

/** The type a parameter is cast to: the column's, without its parameters (`STRING(2)` -> `STRING`, which compares the same). */
export const castType = (t: CatalogType): Sql => raw(t.display.replace(/\(.*\)$/, ''));

/** A scalar parameter (STRING), or a JSON text for objects and lists. */
const param = (value: Value): Sql => {
  switch (value.kind) {
    case 'literal':
      return paramFrom({ kind: 'literal', value: value.value === null ? null : typeof value.value === 'object' ? JSON.stringify(value.value) : String(value.value), query: true });
    case 'variable':
      return paramFrom({ kind: 'variable', name: value.name, path: value.path, coerce: 'scalar' });
    case 'session':
      return sql`JSON_VALUE(${paramFrom({ kind: 'session' })}, ${literal(`$."${sessionName(value.name)}"`)})`;
    default:
      throw notSupported(`a ${value.kind} value`);
  }
};

const sessionName = (name: string) => jsonKey(name, 'session variable name');

/** A name as a key of a fixed JSON path (`$."name"`): refused when it would need escaping. */
export function jsonKey(name: string, what: string): string {
  if (/["\\']/.test(name)) throw notSupported(`the ${what} ${JSON.stringify(name)}`);
  return name;
}

function bound(value: Value, type: CatalogType | null, scope: Scope, root: Scope): Sql {
  if (value.kind === 'column') return col(value.root ? root : scope, value.column);
  return type ? sql`CAST(${param(value)} AS ${castType(type)})` : param(value);
}

const boundList = (json: Sql, type: CatalogType): Sql => sql`SELECT CAST(v AS ${castType(type)}) FROM UNNEST(JSON_VALUE_ARRAY(${json})) AS v`;

export const BIGQUERY_BOOLEXP: BoolExpDialect = {
  table: (t) => backtickQualified(t.schema, t.name),
  column: col,
  value: bound,
  list: boundList,
  notSupported,
};
