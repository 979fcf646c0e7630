/**
 * add_remote_schema_permissions, drop_remote_schema_permissions (spec "Remote schemas",
 * "Remote schema" permission rules; "Authentication" item 11: only with
 * `--enable-remote-schema-permissions`). The document is checked against the remote's
 * introspection (metadata/remote-permissions.ts): a 400 naming what does not fit, nothing stored.
 */
import { buildClientSchema } from 'graphql';
import { badRequest } from '../../../errors/admin.js';
import { nonEmptyStr, ObjectReader, str } from '../../../util/decode.js';
import { checkPermissionSchema, PermissionSchemaError } from '../../../metadata/remote-permissions.js';
import { findRemoteSchema, remotePermissionEntry, remoteSchemas, setRemoteSchemas, withoutPermission, type RemoteSchemaMetadata } from '../../../metadata/remote-schemas.js';
import { SUCCESS, type Command, type CommandContext } from './context.js';

function requireEnabled(ctx: CommandContext, path: string): void {
  if (!ctx.remoteSchemaPermissions) {
    throw badRequest('constraint-violation', 'remote schema permissions can only be added or dropped when the engine runs with remote schema permissions enabled (--enable-remote-schema-permissions or SERVICE_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS)', path);
  }
}

const withPermissions = (ctx: CommandContext, name: string, edit: (rs: RemoteSchemaMetadata) => RemoteSchemaMetadata) =>
  setRemoteSchemas(ctx.metadata, remoteSchemas(ctx.metadata).map((x) => (x.name === name ? edit(x) : x)));

export const addRemoteSchemaPermissions: Command = (ctx, args, path) => {
  requireEnabled(ctx, path);
  const r = ObjectReader.of(args, path);
  const name = r.required('remote_schema', nonEmptyStr);
  const role = r.required('role', nonEmptyStr);
  const definition = r.required('definition', (v) => v);
  const comment = r.optional('comment', (v, p) => str(v, p));
  r.done();
  const entry = remotePermissionEntry({ role, definition, ...(comment !== undefined ? { comment } : {}) }, path);
  if (role === 'admin') throw badRequest('constraint-violation', 'the admin role sees every remote schema: it cannot be given a permission', `${path}.role`);
  const rs = findRemoteSchema(ctx.metadata, name, `${path}.remote_schema`);
  if (rs.permissions?.some((p) => p.role === role)) throw badRequest('already-exists', `remote schema permission for role ${JSON.stringify(role)} on remote schema ${JSON.stringify(name)} already exists`, `${path}.role`);
  const introspection = ctx.remoteIntrospection(name);
  if (!introspection) throw badRequest('invalid-configuration', `remote schema ${JSON.stringify(name)} is inconsistent: its permissions cannot be checked`, `${path}.remote_schema`);
  try {
    checkPermissionSchema(entry.definition.schema, buildClientSchema(introspection));
  } catch (e) {
    if (!(e instanceof PermissionSchemaError)) throw e;
    throw badRequest('validation-failed', `validation for the given role's schema failed: ${e.message}`, `${path}.definition.schema`);
  }
  withPermissions(ctx, name, (x) => ({ ...x, permissions: [...(x.permissions ?? []), entry] }));
  return { metadata: ctx.metadata, response: SUCCESS };
};

export const dropRemoteSchemaPermissions: Command = (ctx, args, path) => {
  requireEnabled(ctx, path);
  const r = ObjectReader.of(args, path);
  const name = r.required('remote_schema', nonEmptyStr);
  const role = r.required('role', nonEmptyStr);
  r.done();
  const rs = findRemoteSchema(ctx.metadata, name, `${path}.remote_schema`);
  if (!rs.permissions?.some((p) => p.role === role)) throw badRequest('not-exists', `remote schema permission for role ${JSON.stringify(role)} on remote schema ${JSON.stringify(name)} does not exist`, `${path}.role`);
  withPermissions(ctx, name, (x) => withoutPermission(x, role));
  return { metadata: ctx.metadata, response: SUCCESS };
};
