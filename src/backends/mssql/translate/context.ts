/** What the SQL Server translators share: scopes and aliases, bound values, casts, refusals. */
import type { CatalogType } from '../../../metadata/catalog.js';
import { badRequest } from '../../../protocol/errors.js';
import { literal, paramFrom, raw, sql, type Sql } from '../../../sql/fragment.js';
import type { Value } from '../../../ir/boolexp.js';
import { bracket } from '../dialect.js';
import { Aliases as NeutralAliases, type Scope } from '../../../sql/scope.js';

export type { Scope } from '../../../sql/scope.js';

/** Fresh aliases per statement: `[t0]`, `[t1]`, ... */
export class Aliases extends NeutralAliases {
  constructor() {
    super(bracket, 't');
  }
}

export const col = (scope: Scope, column: string): Sql => raw(`${scope.alias.parts[0] as string}.${bracket(column).parts[0] as string}`);

/** What SQL Server cannot do the way the IR asks, named as the API reports it. */
export const notSupported = (what: string) => badRequest('not-supported', `${what} is not supported by the mssql backend`);

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

/** A list value (`_in`): a JSON array parameter read with OPENJSON. */
export function boundList(value: Value, type: CatalogType): Sql {
  const list =
    value.kind === 'literal'
      ? paramFrom({ kind: 'literal', value: JSON.stringify(value.value), query: true })
      : value.kind === 'variable'
        ? paramFrom({ kind: 'variable', name: value.name, path: value.path, coerce: 'json' })
        : null;
  if (!list) throw notSupported(`a list from a ${value.kind}`);
  return sql`SELECT CAST([value] AS ${castType(type)}) FROM OPENJSON(${list})`;
}
