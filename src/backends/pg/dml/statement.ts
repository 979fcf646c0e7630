/**
 * The statement of one deprecated DML operation. It runs as admin: every relationship
 * is usable and no permission filter applies; `where` is translated like a GraphQL one.
 */
import type { ObjectReader } from '../../../util/decode.js';
import { type Rendered, type Sql } from '../../../sql/fragment.js';
import { renderPg } from '../dialect.js';
import type { DmlKind, DmlRequest } from '../../backend.js';
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

export function dmlStatement(kind: DmlKind, request: DmlRequest): Rendered {
  const aliases = new Aliases();
  const scope: Scope = { alias: aliases.next(), table: request.table.name };
  const env = { aliases, root: scope, sessionVariables: new Set<string>(), wholeSession: { read: false } };
  const target: DmlTarget = {
    table: request.table.catalog,
    scope,
    where: (v, p) => boolExpSql(request.where(v, p), scope, env),
  };
  return renderPg(BUILDERS[kind](target, request.args));
}
