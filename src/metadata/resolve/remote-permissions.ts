/**
 * Remote schema permissions resolved: each stored permission checked against its remote's
 * introspection (a document the remote no longer fits is inconsistent), and the inherited
 * roles' permissions (spec "Inherited role" rule 5: a remote schema permission is inherited
 * when the parents that have one agree; parents that disagree leave the role without it and
 * report an informational inconsistency, resolved by giving the role its own permission).
 */
import { buildClientSchema, type GraphQLSchema, type IntrospectionQuery } from 'graphql';
import type { Json } from '../../util/decode.js';
import { inheritedRoles } from '../inherited-roles.js';
import { checkPermissionSchema, PermissionSchemaError, type CheckedPermission } from '../remote-permissions.js';
import { remoteSchemas, setRemoteSchemas, withoutPermission, type RemoteSchemaMetadata, type RemoteSchemaPermission } from '../remote-schemas.js';
import type { Metadata } from '../types.js';
import { parentsFirst } from './inherited-roles.js';
import type { Inconsistency } from './types.js';
import type { RemoteChecks, ResolveMemo } from './memo.js';

/** A role's permission document on one remote schema, or why an inherited role has none. */
export type EffectivePermission = { schema: string } | { conflict: true };

/** Each remote schema's permissions by role, inherited roles included. */
export function effectiveRemotePermissions(m: Metadata, rs: RemoteSchemaMetadata): Map<string, EffectivePermission> {
  const out = new Map<string, EffectivePermission>((rs.permissions ?? []).map((p) => [p.role, { schema: p.definition.schema }]));
  for (const role of parentsFirst(inheritedRoles(m))) {
    if (out.has(role.role_name)) continue;
    const parents = role.role_set.map((p) => out.get(p)).filter((p): p is EffectivePermission => p !== undefined);
    if (parents.length === 0) continue;
    const first = parents[0]!;
    const same = parents.every((p) => 'schema' in p && 'schema' in first && p.schema.trim() === first.schema.trim());
    out.set(role.role_name, same ? first : { conflict: true });
  }
  return out;
}

function remoteOf(intro: IntrospectionQuery, memo: ResolveMemo): RemoteChecks {
  let r = memo.remotes.get(intro);
  if (!r) memo.remotes.set(intro, (r = { schema: buildClientSchema(intro), checked: new Map() }));
  return r;
}

/** The remote's schema from its introspection (kept per introspection object). */
export const remoteClientSchema = (intro: IntrospectionQuery, memo: ResolveMemo): GraphQLSchema => remoteOf(intro, memo).schema;

/** A permission document checked against the remote (kept per document): the result, or why it does not fit. */
export function checkedPermission(intro: IntrospectionQuery, sdl: string, memo: ResolveMemo): CheckedPermission | string {
  const r = remoteOf(intro, memo);
  let c = r.checked.get(sdl);
  if (c === undefined) {
    try {
      c = checkPermissionSchema(sdl, r.schema);
    } catch (e) {
      if (!(e instanceof PermissionSchemaError)) throw e;
      c = e.message;
    }
    r.checked.set(sdl, c);
  }
  return c;
}

export function remotePermissionInconsistencies(m: Metadata, rs: RemoteSchemaMetadata, intro: IntrospectionQuery, memo: ResolveMemo): Inconsistency[] {
  const out: Inconsistency[] = [];
  for (const p of rs.permissions ?? []) {
    const c = checkedPermission(intro, p.definition.schema, memo);
    if (typeof c === 'string') out.push(brokenPermission(rs.name, p, c));
  }
  for (const [role, e] of effectiveRemotePermissions(m, rs)) {
    if (!('conflict' in e)) continue;
    out.push({
      object: {
        type: 'inherited role permission inconsistency',
        name: role,
        entity: { remote_schema: rs.name, permission_type: 'remote_schema' },
        reason: `Could not inherit permission for the role '${role}' for the entity: 'remote schema permission, remote schema: '${rs.name}''`,
      },
      informational: true,
      remove: () => {},
    });
  }
  return out;
}

function brokenPermission(remote: string, p: RemoteSchemaPermission, reason: string): Inconsistency {
  return {
    object: { type: 'remote_schema_permission', name: `remote_schema_permission ${p.role} of ${remote}`, definition: { remote_schema: remote, ...p } as unknown as Json, reason: `Inconsistent object: ${reason}` },
    remove: (d) => setRemoteSchemas(d, remoteSchemas(d).map((x) => (x.name === remote ? withoutPermission(x, p.role) : x))),
  };
}
