/**
 * pg_create_{insert,select,update,delete}_permission, pg_drop_*_permission,
 * pg_set_permission_comment (and their /v1/query forms). A new permission's boolean
 * expressions, columns and presets are checked here, so a mistake is reported with
 * its JSON path; the rest (e.g. the `admin` role) is found by resolution.
 */
import { qualifiedKey } from '../../../catalog/types.js';
import { ApiError, badRequest } from '../../../errors/admin.js';
import { nonEmptyStr, ObjectReader, oneOf, str, type JsonObject } from '../../../util/decode.js';
import { showTable } from '../../../metadata/names.js';
import { permissionBody, resolvePermission } from '../../../metadata/permissions.js';
import { boolExpScope } from '../../../metadata/resolve/permissions.js';
import { PERMISSION_KINDS, type PermissionKind } from '../../../metadata/resolve/types.js';
import { dropTableObject, tableObjectName } from '../../../metadata/resolve/objects.js';
import { SUCCESS, type Command } from './context.js';
import { changeOutcome } from './outcomes.js';
import { putTableObject, readTableArgs, resolvedSource, tableTarget, type TableTarget } from './table-objects.js';

function findPermission(target: TableTarget, kind: PermissionKind, role: string): JsonObject | undefined {
  return (target.entry[`${kind}_permissions`] ?? []).find((p) => p.role === role);
}

export function createPermission(kind: PermissionKind): Command {
  return async (ctx, args, path) => {
    const r = ObjectReader.of(args, path);
    const at = readTableArgs(r);
    const role = r.required('role', nonEmptyStr);
    const permission = r.required('permission', permissionBody(kind));
    const comment = r.optional('comment', str);
    r.done();
    const target = tableTarget(ctx, at);
    if (findPermission(target, kind, role)) {
      throw badRequest('already-exists', `${kind} permission already defined on table ${JSON.stringify(showTable(target.table))} with role ${JSON.stringify(role)}`, path);
    }
    if (role !== 'admin') {
      const check = () => {
        const source = resolvedSource(ctx, target.source.name);
        const table = source?.tables.get(qualifiedKey(target.table));
        if (source && table) resolvePermission(kind, permission, table, boolExpScope(source), r.at('permission'));
      };
      try {
        check();
      } catch (e) {
        // A column or table the catalog does not have may have been created outside run_sql: it
        // is seen once the catalog is read again (once), then the permission is judged again.
        if (!(e instanceof ApiError) || e.code !== 'not-exists') throw e;
        await ctx.reloadSources([target.source.name]);
        check();
      }
    }
    putTableObject(target.entry, `${kind}_permissions`, { role, permission, ...(comment !== undefined ? { comment } : {}) });
    return { metadata: ctx.metadata, response: SUCCESS, ...changeOutcome(tableObjectName(`${kind}_permission`, role, target.table, target.source.name), path) };
  };
}

export function dropPermission(kind: PermissionKind): Command {
  return (ctx, args, path) => {
    const r = ObjectReader.of(args, path);
    const at = readTableArgs(r);
    const role = r.required('role', nonEmptyStr);
    r.done();
    const target = tableTarget(ctx, at);
    if (!findPermission(target, kind, role)) {
      throw badRequest('bad-request', `${kind} permission on ${JSON.stringify(showTable(target.table))} for role ${JSON.stringify(role)} does not exist`, path);
    }
    dropTableObject(target.entry, `${kind}_permissions`, role);
    return { metadata: ctx.metadata, response: SUCCESS, ...changeOutcome(tableObjectName(`${kind}_permission`, role, target.table, target.source.name), path) };
  };
}

export const setPermissionComment: Command = (ctx, args, path) => {
  const r = ObjectReader.of(args, path);
  const at = readTableArgs(r);
  const role = r.required('role', nonEmptyStr);
  const kind = r.required('type', oneOf(PERMISSION_KINDS, 'permission type'));
  const comment = r.optional('comment', str);
  r.done();
  const target = tableTarget(ctx, at);
  const stored = findPermission(target, kind, role);
  if (!stored) {
    throw new ApiError(400, 'permission-denied', `'${kind}' permission on ${JSON.stringify(showTable(target.table))} for role ${JSON.stringify(role)} does not exist`, path);
  }
  if (comment === undefined) delete stored.comment;
  else stored.comment = comment;
  return { metadata: ctx.metadata, response: SUCCESS };
};
