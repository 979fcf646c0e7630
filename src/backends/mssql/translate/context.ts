/** What the SQL Server translators share: scopes and aliases, bound values, casts, refusals. */
import type { CatalogType } from '../../../catalog/types.js';
import { literal, paramFrom, raw, sql, type Sql } from '../../../sql/fragment.js';
import type { Value } from '../../../ir/boolexp.js';
import { bracket, bracketQualified } from '../dialect.js';
import type { BoolExpDialect } from '../../../sql/boolexp-compiler.js';
import { qualifiedColumn, type Scope } from '../../../sql/scope.js';
import { notSupportedBy } from '../../backend.js';

export type { Scope } from '../../../sql/scope.js';

export const col = qualifiedColumn(bracket);

export const notSupported = notSupportedBy('mssql');

/** The SQL Server type a value is cast to (parameters are bound as nvarchar). */
export const castType = (t: CatalogType): Sql => raw(t.display);

/** A bound value (literals too: every value is a parameter). */
export function bound(value: Value, type: CatalogType | null, scope: Scope, root: Scope): Sql {
  const cast = (v: Sql) => (type ? sql`CAST(${v} AS ${castType(type)})` : v);
  switch (value.kind) {
    case 'literal':
      if (typeof value.value === 'object' && value.value !== null) return cast(paramFrom({ kind: 'literal', value: JSON.stringify(value.value), query: true }));
      return cast(paramFrom({ kind: 'literal', value: value.value === null ? null : String(value.value), query: true }));
    case 'variable':
      return cast(paramFrom({ kind: 'variable', name: value.name, path: value.path, coerce: 'scalar' }));
    case 'session':
      return cast(sessionValue(value.name));
    case 'column':
      return col(value.root ? root : scope, value.column);
    case 'cursor':
      throw notSupported('streaming subscriptions');
  }
}

/** A session variable read from the one session parameter (JSON); names are header names, so the path is a fixed literal. */
export function sessionValue(name: string): Sql {
  if (/["\\]/.test(name)) throw notSupported(`the session variable name ${JSON.stringify(name)}`);
  return sql`JSON_VALUE(${paramFrom({ kind: 'session' })}, ${literal(`$."${name}"`)})`;
}

/** How SQL Server writes boolean expressions (`sql/boolexp-compiler.ts`). */
export const MSSQL_BOOLEXP: BoolExpDialect = {
  table: (t) => bracketQualified(t.schema, t.name),
  column: col,
  value: bound,
  list: boundList,
  notSupported,
};

/** A list (`_in`): its JSON array parameter read with OPENJSON. */
function boundList(json: Sql, type: CatalogType): Sql {
  return sql`SELECT CAST([value] AS ${castType(type)}) FROM OPENJSON(${json})`;
}
