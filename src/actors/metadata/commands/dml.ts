/**
 * The deprecated data operations of `/v1/query` and `/v2/query`: select, count, insert, update,
 * delete on a tracked table. They run inside the request's unit of work, so a bulk that fails
 * later rolls them back too. Admin's run without permissions; on `/v1/query` a role's run with
 * its permissions, as the well-known engine's `Hasura.RQL.DML.*` do (metadata/dml-permissions.ts).
 * `where` is read like a permission filter (relationships, `_exists`, computed fields) and
 * translated like a GraphQL one.
 */
import type { DmlKind } from '../../../backends/faces/admin.js';
import { qualifiedKey, type QualifiedName } from '../../../catalog/types.js';
import { badRequest, notExists } from '../../../errors/admin.js';
import { ObjectReader, str, type Json } from '../../../util/decode.js';
import { parseBoolExp } from '../../../metadata/boolexp.js';
import { DmlPermissions } from '../../../metadata/dml-permissions.js';
import { boolExpScope } from '../../../metadata/resolve/permissions.js';
import { RolePermissions } from '../../../metadata/resolve/role-permissions.js';
import type { ResolvedSource } from '../../../metadata/resolve/types.js';
import { findSource } from '../../../metadata/lookup.js';
import { showTable, tableName } from '../../../metadata/names.js';
import { resolveSourceFields } from '../../../metadata/resolve.js';
import { adminRequestRole } from '../../../protocol/messages.js';
import { unchanged } from '../../../util/draft.js';
import type { Command, CommandContext } from './context.js';
import type { SourceMetadata } from '../../../metadata/types.js';

type Row = Record<string, unknown>;

const NO_INHERITED_ROLES = new Map<string, string[]>();

/**
 * The source's tables as the caller's operation needs them. Admin needs them up to their fields,
 * not the whole document resolved (its committed, frozen form keeps that work between requests);
 * a role needs their permissions and the inherited roles too.
 */
function resolveFor(ctx: CommandContext, source: SourceMetadata, role: string): { resolved: ResolvedSource; inheritedRoles: ReadonlyMap<string, readonly string[]> } | undefined {
  const catalog = ctx.introspection(source.name);
  if (!catalog) return undefined;
  if (role === 'admin') return { resolved: resolveSourceFields(unchanged(source), catalog, ctx.resolveMemo), inheritedRoles: NO_INHERITED_ROLES };
  const all = ctx.resolved();
  const resolved = all.sources.get(source.name);
  return resolved && { resolved, inheritedRoles: all.inheritedRoles };
}

function dmlCommand(kind: DmlKind, answer: (row: Row) => Json): Command {
  return async (ctx, args, path) => {
    const r = ObjectReader.of(args, path);
    // Only /v2/query names the source; /v1/query works on `default`.
    const source = findSource(ctx.metadata, ctx.endpoint === 'v2/query' ? r.withDefault('source', str, 'default') : 'default', r.at('source'));
    const table = r.required('table', tableName);
    const role = adminRequestRole(ctx.session);
    const found = resolveFor(ctx, source, role);
    const resolvedTable = found?.resolved.tables.get(qualifiedKey(table));
    // A source with a catalog has a backend: it was introspected through it.
    const backend = ctx.backend(source.kind);
    if (!found || !resolvedTable || !backend) throw notExists(`table ${JSON.stringify(showTable(table))} does not exist`, r.at('table'));

    const { resolved } = found;
    const scope = boolExpScope(resolved);
    const lookup = (t: QualifiedName) => resolved.tables.get(qualifiedKey(t));
    const permissions = new DmlPermissions(role, new RolePermissions(found.inheritedRoles), lookup);
    const statement = backend.dmlStatement(kind, {
      table: resolvedTable,
      args: r,
      where: (v, p, t = resolvedTable) => permissions.where(parseBoolExp(v, t, scope, p), t, p),
      lookup,
      permissions,
    });
    permissions.requireSession(statement.sessionVariables, ctx.session, path);
    // Session variables read the caller's session (its `x-service-*` headers).
    const values = statement.params.map((p) => (p.kind === 'literal' ? p.value : p.kind === 'session' ? JSON.stringify(ctx.session) : null));
    let rows: Row[];
    try {
      rows = await ctx.query(source.name, statement.text, values);
    } catch (e) {
      throw backend.dataError(e, statement.text);
    }
    const row = rows[0] ?? {};
    // The unit of work rolls the change back with the request (the well-known engine's words).
    if (row.check === false) throw badRequest('permission-error', 'check constraint of an insert/update permission has failed', path);
    return { metadata: null, response: answer(row) };
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

/** The deprecated API's data operations: the ones a non-admin role may run on `/v1/query` (the well-known engine's `requiresAdmin`). */
export const DATA_OPERATIONS: ReadonlySet<string> = new Set(Object.keys(DML_COMMANDS));
