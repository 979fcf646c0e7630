/**
 * The statement of one deprecated DML operation, with the caller's permissions applied (admin's
 * let everything through); `where` is translated like a GraphQL one.
 */
import type { ObjectReader } from '../../../util/decode.js';
import type { Sql } from '../../../sql/fragment.js';
import { renderPg } from '../dialect.js';
import type { DmlKind, DmlRequest, DmlStatement } from '../../faces/admin.js';
import type { ResolvedTable } from '../../../metadata/resolve/types.js';
import { notExists } from '../../../errors/admin.js';
import { boolExpSql, valueSql } from '../translate/boolexp.js';
import { Aliases, castType, type BoolExpEnv, type Scope } from '../translate/context.js';
import { deleteStatement, insertStatement, updateStatement } from './mutations.js';
import { countStatement, selectStatement } from './select.js';
import type { DmlTarget } from './target.js';

const BUILDERS: Record<DmlKind, (target: DmlTarget, r: ObjectReader) => Sql> = {
  select: selectStatement,
  count: countStatement,
  insert: insertStatement,
  update: updateStatement,
  delete: deleteStatement,
};

export function dmlStatement(kind: DmlKind, request: DmlRequest): DmlStatement {
  const aliases = new Aliases();
  const root: Scope = { alias: aliases.next(), table: request.table.name };
  const env: BoolExpEnv = { aliases, root, sessionVariables: new Set<string>(), wholeSession: { read: false } };
  const rendered = renderPg(BUILDERS[kind](dmlTarget(request, request.table, root, env), request.args));
  return { ...rendered, sessionVariables: [...env.sessionVariables] };
}

/** `table` under `scope`; its relationships' targets under aliases of their own, as a nested select reaches them. */
function dmlTarget(request: DmlRequest, table: ResolvedTable, scope: Scope, env: BoolExpEnv): DmlTarget {
  return {
    table: table.catalog,
    resolved: table,
    scope,
    permissions: request.permissions,
    where: (v, p) => boolExpSql(request.where(v, p, table), scope, env),
    condition: (b) => boolExpSql(b, scope, env),
    preset: (v, c) => valueSql(v, castType(c.type), scope, env),
    related: (name, p) => {
      const rel = table.relationships.get(name);
      const target = rel && request.lookup(rel.target);
      if (!rel || !target) throw notExists(`relationship ${JSON.stringify(name)} does not exist on table ${JSON.stringify(table.name.name)}`, p);
      return { kind: rel.kind, mapping: rel.mapping, target: dmlTarget(request, target, { alias: env.aliases.next(), table: target.name }, env) };
    },
  };
}
