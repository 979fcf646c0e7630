/**
 * create_remote_relationship, update_remote_relationship, delete_remote_relationship (spec
 * "Remote relationships"; prefixed `pg_`, `citus_`, `mssql_`, `bigquery_` on `/v1/metadata`).
 * What the relationship refers to (columns, the remote schema and its fields, the target
 * table) is checked by resolution: a relationship that does not resolve fails the command
 * with the reason, nothing stored.
 */
import { notExists } from '../../../errors/admin.js';
import { isObject, ObjectReader, type JsonObject } from '../../../util/decode.js';
import { remoteRelationshipDefinition } from '../../../metadata/remote-relationships.js';
import { graphqlName } from '../../../metadata/names.js';
import { showTable } from '../../../metadata/names.js';
import { SUCCESS, type Command, type CommandContext } from './context.js';
import { fieldExistsError, hasColumn, hasNamedField, readTableArgs, tableTarget } from './table-objects.js';

const byName = (a: JsonObject, b: JsonObject) => (String(a.name) < String(b.name) ? -1 : 1);

/**
 * A `to_source` target named by a bare string is in its source's default schema (SQL Server's
 * `dbo`, as `inSchema` does for the table the command is on); otherwise the decoder's `public`.
 */
function qualifyTarget(ctx: CommandContext, args: unknown): unknown {
  if (!isObject(args) || !isObject(args.definition) || !isObject(args.definition.to_source)) return args;
  const to = args.definition.to_source;
  const kind = ctx.metadata.sources.find((s) => s.name === (typeof to.source === 'string' ? to.source : 'default'))?.kind;
  const schema = (kind && ctx.backend(kind)?.profile.defaultSchema) ?? '';
  if (typeof to.table !== 'string' || schema === '' || schema === 'public') return args;
  return { ...args, definition: { ...args.definition, to_source: { ...to, table: { schema, name: to.table } } } };
}

const save = (update: boolean): Command => (ctx, args, path) => {
  const r = ObjectReader.of(qualifyTarget(ctx, args), path);
  const name = r.required('name', graphqlName);
  const t = readTableArgs(r);
  const { definition } = remoteRelationshipDefinition(r);
  r.done();
  const target = tableTarget(ctx, t);
  const list = target.entry.remote_relationships ?? [];
  const exists = list.some((x) => x.name === name);
  if (update && !exists) throw notExists(`remote relationship ${JSON.stringify(name)} does not exist on table ${JSON.stringify(showTable(target.table))}`, `${path}.name`);
  if (!update && (exists || hasNamedField(target.entry, name) || hasColumn(ctx, target, name))) throw fieldExistsError(name, target.table, `${path}.name`);
  target.entry.remote_relationships = [...list.filter((x) => x.name !== name), { name, definition }].sort(byName);
  return { metadata: ctx.metadata, response: SUCCESS };
};

export const createRemoteRelationship = save(false);
export const updateRemoteRelationship = save(true);

export const deleteRemoteRelationship: Command = (ctx, args, path) => {
  const r = ObjectReader.of(args, path);
  const name = r.required('name', graphqlName);
  const target = tableTarget(ctx, readTableArgs(r));
  r.done();
  const list = target.entry.remote_relationships ?? [];
  if (!list.some((x) => x.name === name)) throw notExists(`remote relationship ${JSON.stringify(name)} does not exist on table ${JSON.stringify(showTable(target.table))}`, `${path}.name`);
  const left = list.filter((x) => x.name !== name);
  if (left.length) target.entry.remote_relationships = left;
  else delete target.entry.remote_relationships;
  return { metadata: ctx.metadata, response: SUCCESS };
};
