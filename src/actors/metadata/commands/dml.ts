/**
 * The deprecated data operations of `/v1/query` and `/v2/query`: select, count,
 * insert, update, delete on a tracked table. They run as admin (no permissions) inside
 * the request's unit of work, so a bulk that fails later rolls them back too. `where`
 * is read like a permission filter (relationships, `_exists`, computed fields) and
 * translated like a GraphQL one.
 */
import type { DmlKind } from '../../../backends/faces/admin.js';
import { qualifiedKey, type QualifiedName } from '../../../catalog/types.js';
import { notExists } from '../../../errors/admin.js';
import { ObjectReader, str, type Json } from '../../../util/decode.js';
import { parseBoolExp } from '../../../metadata/boolexp.js';
import { boolExpScope } from '../../../metadata/resolve/permissions.js';
import { findSource } from '../../../metadata/lookup.js';
import { showTable, tableName } from '../../../metadata/names.js';
import { resolveSourceFields } from '../../../metadata/resolve.js';
import { unchanged } from '../../../util/draft.js';
import type { Command } from './context.js';

type Row = Record<string, unknown>;

function dmlCommand(kind: DmlKind, answer: (row: Row) => Json): Command {
  return async (ctx, args, path) => {
    const r = ObjectReader.of(args, path);
    // Only /v2/query names the source; /v1/query works on `default`.
    const source = findSource(ctx.metadata, ctx.endpoint === 'v2/query' ? r.withDefault('source', str, 'default') : 'default', r.at('source'));
    const table = r.required('table', tableName);
    const catalog = ctx.introspection(source.name);
    // Admin needs the source's tables up to their fields, not the whole document resolved (its
    // committed, frozen form keeps that work between requests).
    const resolved = catalog && resolveSourceFields(unchanged(source), catalog, ctx.resolveMemo);
    const resolvedTable = resolved?.tables.get(qualifiedKey(table));
    // A source with a catalog has a backend: it was introspected through it.
    const backend = ctx.backend(source.kind);
    if (!resolved || !resolvedTable || !backend) throw notExists(`table ${JSON.stringify(showTable(table))} does not exist`, r.at('table'));

    const scope = boolExpScope(resolved);
    const { text, params } = backend.dmlStatement(kind, {
      table: resolvedTable,
      args: r,
      where: (v, p, t = resolvedTable) => parseBoolExp(v, t, scope, p),
      lookup: (t: QualifiedName) => resolved.tables.get(qualifiedKey(t)),
    });
    // Session variables in a `where` read the caller's session (admin, with its `x-service-*` headers).
    const values = params.map((p) => (p.kind === 'literal' ? p.value : p.kind === 'session' ? JSON.stringify(ctx.session) : null));
    let rows: Row[];
    try {
      rows = await ctx.query(source.name, text, values);
    } catch (e) {
      throw backend.dataError(e, text);
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
  select: dmlCommand('select', (row) => row.rows as Json),
  count: dmlCommand('count', (row) => ({ count: Number(row.count) })),
  insert: dmlCommand('insert', mutationAnswer),
  update: dmlCommand('update', mutationAnswer),
  delete: dmlCommand('delete', mutationAnswer),
};

/** The deprecated API's data operations (`/v1/query` and `/v2/query`). */
export const DATA_OPERATIONS: ReadonlySet<string> = new Set(Object.keys(DML_COMMANDS));
