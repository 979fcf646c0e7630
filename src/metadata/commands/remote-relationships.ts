/**
 * create_remote_relationship, update_remote_relationship, delete_remote_relationship (spec
 * "Remote relationships"; prefixed `pg_`/`citus_` on `/v1/metadata`, `mssql_` accepted as an
 * alias until that backend exists). What the relationship refers to (columns, the remote
 * schema and its fields) is checked by resolution: a relationship that does not resolve fails
 * the command with the reason, nothing stored.
 */
import { notExists } from '../../protocol/errors.js';
import { ObjectReader, type JsonObject } from '../../util/decode.js';
import { relationshipName, remoteRelationshipDefinition } from '../remote-relationships.js';
import { showTable } from '../names.js';
import { SUCCESS, type Command } from './context.js';
import { fieldExistsError, hasColumn, hasNamedField, readTableArgs, tableTarget } from './table-objects.js';

const byName = (a: JsonObject, b: JsonObject) => (String(a.name) < String(b.name) ? -1 : 1);

const save = (update: boolean): Command => (ctx, args, path) => {
  const r = ObjectReader.of(args, path);
  const name = r.required('name', relationshipName);
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
  const name = r.required('name', relationshipName);
  const target = tableTarget(ctx, readTableArgs(r));
  r.done();
  const list = target.entry.remote_relationships ?? [];
  if (!list.some((x) => x.name === name)) throw notExists(`remote relationship ${JSON.stringify(name)} does not exist on table ${JSON.stringify(showTable(target.table))}`, `${path}.name`);
  const left = list.filter((x) => x.name !== name);
  if (left.length) target.entry.remote_relationships = left;
  else delete target.entry.remote_relationships;
  return { metadata: ctx.metadata, response: SUCCESS };
};
