/**
 * The deprecated data operations of `/v1/query` and `/v2/query`: select, count,
 * insert, update, delete on a tracked table. They run as admin (no permissions) inside
 * the request's unit of work, so a bulk that fails later rolls them back too. `where`
 * is read like a permission filter (relationships, `_exists`, computed fields) and
 * translated like a GraphQL one.
 */
import { qualifiedKey, type QualifiedName } from '../catalog.js';
import { dataError } from '../../backends/pg/data-errors.js';
import { countStatement, selectStatement } from '../../backends/pg/dml/select.js';
import { deleteStatement, insertStatement, updateStatement } from '../../backends/pg/dml/mutations.js';
import type { DmlTarget } from '../../backends/pg/dml/target.js';
import { boolExpSql } from '../../backends/pg/translate/boolexp.js';
import { Aliases, type Scope, type TranslateContext } from '../../backends/pg/translate/context.js';
import { notExists } from '../../protocol/errors.js';
import { render, type Sql } from '../../sql/fragment.js';
import { ObjectReader, str, type Json } from '../../util/decode.js';
import { parseBoolExp } from '../boolexp.js';
import { findSource } from '../lookup.js';
import { showTable, tableName } from '../names.js';
import { resolveMetadata } from '../resolve.js';
import type { ResolvedSource } from '../resolve/types.js';
import type { Command } from './context.js';

type Row = Record<string, unknown>;

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

function dmlCommand(build: (target: DmlTarget, r: ObjectReader) => Sql, answer: (row: Row) => Json): Command {
  return async (ctx, args, path) => {
    const r = ObjectReader.of(args, path);
    // Only /v2/query names the source; /v1/query works on `default`.
    const source = findSource(ctx.metadata, ctx.endpoint === 'v2/query' ? r.withDefault('source', str, 'default') : 'default', r.at('source'));
    const table = r.required('table', tableName);
    const catalog = ctx.introspection(source.name);
    const resolved = catalog && resolveMetadata(ctx.metadata, new Map([[source.name, { introspection: catalog, error: null }]])).sources.get(source.name);
    const resolvedTable = resolved?.tables.get(qualifiedKey(table));
    if (!resolved || !resolvedTable) throw notExists(`table ${JSON.stringify(showTable(table))} does not exist`, r.at('table'));

    const aliases = new Aliases();
    const scope: Scope = { alias: aliases.next(), table: resolvedTable.name };
    const env = { ctx: adminTranslation(resolved), aliases, root: scope, applyPermissions: false, sessionVariables: new Set<string>() };
    const boolExpScope = { source: source.name, table: (t: QualifiedName) => resolved.tables.get(qualifiedKey(t)) };
    const target: DmlTarget = {
      table: resolvedTable.pg,
      scope,
      where: (v, p) => boolExpSql(parseBoolExp(v, resolvedTable, boolExpScope, p), scope, env),
    };
    const { text, params } = render(build(target, r));
    // Session variables in a `where` read admin's session, which names only the role.
    const values = params.map((p) => (p.kind === 'literal' ? p.value : p.kind === 'session' ? JSON.stringify({ 'x-service-role': 'admin' }) : null));
    let rows: Row[];
    try {
      rows = await ctx.query(source.name, text, values);
    } catch (e) {
      throw dataError(e, text);
    }
    return { metadata: null, response: answer(rows[0] ?? {}) };
  };
}

/** `{affected_rows}` plus `returning` when it was asked for. */
function mutationAnswer(row: Row): Json {
  const out: Record<string, Json> = { affected_rows: Number(row.affected_rows) };
  if (row.returning !== undefined) out.returning = row.returning as Json;
  return out;
}

export const DML_COMMANDS: Record<string, Command> = {
  select: dmlCommand(selectStatement, (row) => row.rows as Json),
  count: dmlCommand(countStatement, (row) => ({ count: Number(row.count) })),
  insert: dmlCommand(insertStatement, mutationAnswer),
  update: dmlCommand(updateStatement, mutationAnswer),
  delete: dmlCommand(deleteStatement, mutationAnswer),
};
