/**
 * The statement of one deprecated DML operation. It runs as admin: every relationship
 * is usable and no permission filter applies; `where` is translated like a GraphQL one.
 */
import { qualifiedKey, type QualifiedName } from '../../../metadata/catalog.js';
import type { ResolvedSource } from '../../../metadata/resolve/types.js';
import type { ObjectReader } from '../../../util/decode.js';
import { type Rendered, type Sql } from '../../../sql/fragment.js';
import { renderPg } from '../dialect.js';
import type { DmlKind, DmlRequest, TranslateContext } from '../../backend.js';
import { boolExpSql } from '../translate/boolexp.js';
import { Aliases, type Scope } from '../translate/context.js';
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

/** Admin's view of a resolved source for SQL translation: every relationship, no permission filters. */
function adminTranslation(source: ResolvedSource): TranslateContext {
  const table = (t: QualifiedName) => source.tables.get(qualifiedKey(t))!;
  return {
    columnType: (t, column) => table(t).columns.get(column)!.type,
    relationship: (t, name) => {
      const rel = table(t).relationships.get(name)!;
      return { join: { target: rel.target, mapping: rel.mapping }, permission: null };
    },
    computedField: (t, name) => {
      const cf = table(t).computedFields.get(name)!;
      const fn = cf.function;
      return { fn: { schema: fn.schema, name: fn.name }, returnType: fn.returnType, sessionArgument: cf.sessionArgument === null ? null : (fn.args[cf.sessionArgument]?.name ?? null) };
    },
    stringifyNumeric: false,
  };
}

export function dmlStatement(kind: DmlKind, request: DmlRequest): Rendered {
  const aliases = new Aliases();
  const scope: Scope = { alias: aliases.next(), table: request.table.name };
  const env = { ctx: adminTranslation(request.source), aliases, root: scope, applyPermissions: false, sessionVariables: new Set<string>() };
  const target: DmlTarget = {
    table: request.table.catalog,
    scope,
    where: (v, p) => boolExpSql(request.where(v, p), scope, env),
  };
  return renderPg(BUILDERS[kind](target, request.args));
}
