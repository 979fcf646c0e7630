/**
 * add_remote_schema, update_remote_schema, remove_remote_schema, reload_remote_schema (spec
 * "Remote schemas"), and introspect_remote_schema (the well-known engine's read of a remote's
 * schema, which its console's "Browse types" and permissions editor show). The unit of work introspects a new or changed definition
 * (actors/metadata/remotes.ts); a server that does not answer, or names that clash, leave the
 * remote schema inconsistent and so fail the command, with nothing stored.
 */
import { nonEmptyStr, ObjectReader, type Json } from '../../../util/decode.js';
import { assertNewRemoteSchema, findRemoteSchema, remoteSchemaArgs, remoteSchemas, setRemoteSchemas } from '../../../metadata/remote-schemas.js';
import { SUCCESS, type Command } from './context.js';
import { badRequest } from '../../../errors/admin.js';
import { cannotDrop } from '../../../metadata/dependencies.js';
import { showTable } from '../../../metadata/names.js';
import { storedToRemoteSchema } from '../../../metadata/remote-relationships.js';

export const addRemoteSchema: Command = (ctx, args, path) => {
  const rs = remoteSchemaArgs(args, path);
  assertNewRemoteSchema(ctx.metadata, rs.name, `${path}.name`);
  setRemoteSchemas(ctx.metadata, [...remoteSchemas(ctx.metadata), rs]);
  return { metadata: ctx.metadata, response: SUCCESS };
};

/** Replaces the definition and comment; the permissions stay. */
export const updateRemoteSchema: Command = (ctx, args, path) => {
  const rs = remoteSchemaArgs(args, path);
  const old = findRemoteSchema(ctx.metadata, rs.name, `${path}.name`);
  const next = old.permissions ? { ...rs, permissions: old.permissions } : rs;
  setRemoteSchemas(ctx.metadata, remoteSchemas(ctx.metadata).map((x) => (x.name === rs.name ? next : x)));
  return { metadata: ctx.metadata, response: SUCCESS };
};

function nameArg(args: unknown, path: string): string {
  const r = ObjectReader.of(args, path);
  const name = r.required('name', nonEmptyStr);
  r.done();
  return name;
}

/** Refused while a remote relationship uses the remote schema (as upstream: drop those first). */
export const removeRemoteSchema: Command = (ctx, args, path) => {
  const name = nameArg(args, path);
  findRemoteSchema(ctx.metadata, name, `${path}.name`);
  const users = ctx.metadata.sources.flatMap((s) =>
    s.tables.flatMap((t) => (t.remote_relationships ?? []).filter((rr) => storedToRemoteSchema(rr)?.remote_schema === name).map((rr) => `remote_relationship ${showTable(t.table)}.${String(rr.name)} in source ${s.name}`)),
  );
  if (users.length > 0) throw cannotDrop(users, path);
  setRemoteSchemas(ctx.metadata, remoteSchemas(ctx.metadata).filter((x) => x.name !== name));
  return { metadata: ctx.metadata, response: SUCCESS };
};

/** Introspects the server again; a server that no longer answers leaves the remote schema inconsistent (reported, not refused). */
export const reloadRemoteSchema: Command = async (ctx, args, path) => {
  const name = nameArg(args, path);
  findRemoteSchema(ctx.metadata, name, `${path}.name`);
  await ctx.reloadRemoteSchemas([name]);
  return { metadata: null, response: SUCCESS, consistency: 'allow' };
};

/**
 * The remote's introspection as last fetched, in its own names (before customization): the
 * well-known engine answers the stored introspection response, `{data: {__schema}}`. One that
 * could not be fetched is 400 `remote-schema-error` with the reason the inconsistency gives.
 */
export const introspectRemoteSchema: Command = (ctx, args, path) => {
  const name = nameArg(args, path);
  findRemoteSchema(ctx.metadata, name, `${path}.name`);
  const introspection = ctx.remoteIntrospection(name);
  if (!introspection) throw badRequest('remote-schema-error', `remote schema ${JSON.stringify(name)} could not be introspected: it is inconsistent`, `${path}.name`);
  return { metadata: null, response: { data: introspection } as unknown as Json };
};
