/** A role's model of a snapshot's tracked tables and functions (`model.ts`), built and shared between roles granted the same. */
import { RolePermissions, type DeletePermission, type InsertPermission, type SelectPermission, type UpdatePermission } from '../metadata/resolve/role-permissions.js';
import { functionInfos } from './functions.js';
import type { MutableTableInfo, RoleModel, TableIdentity, TableInfo } from './model.js';
import type { TrackedTables } from './tracked-tables.js';

/** The items that pass; the list itself when all do (roles mostly see whole tables: no copy each). */
const kept = <T>(items: T[], keep: (x: T) => boolean): T[] => (items.every(keep) ? items : items.filter(keep));

/** What a role's permissions on each tracked table derive to, four per table in table order (select, insert, update, delete). */
type Grants = (SelectPermission | InsertPermission | UpdatePermission | DeletePermission | null)[];

function grantsOf(tracked: TrackedTables, role: string): Grants {
  const permissions = new RolePermissions(tracked.resolved.inheritedRoles);
  const out: Grants = [];
  for (const { tables } of tracked.sources) {
    for (const { resolved } of tables) out.push(permissions.select(resolved, role), permissions.insert(resolved, role), permissions.update(resolved, role), permissions.delete(resolved, role));
  }
  return out;
}

/**
 * `backendOnly`: the request may use `backend_only` mutation permissions (admin
 * secret plus `X-Service-Use-Backend-Only-Permissions: true`); otherwise they are absent.
 */
export function buildRoleModel(tracked: TrackedTables, role: string, backendOnly = false): RoleModel {
  return modelOf(tracked, role, backendOnly, grantsOf(tracked, role));
}

/**
 * The role models of one snapshot's tracked tables, built on first use of a role. Roles whose
 * permissions derive to the same objects on every table (RolePermissions derives a permission
 * once for the roles given it word for word) share one model: at 5,000 tables a model takes
 * 6 MiB and 120 ms to build, and 11 roles with the same permissions took 66 MiB.
 */
export class RoleModels {
  private readonly built: { backendOnly: boolean; grants: Grants; model: RoleModel }[] = [];

  constructor(private readonly tracked: TrackedTables) {}

  get(role: string, backendOnly: boolean): RoleModel {
    const grants = grantsOf(this.tracked, role);
    const same = this.built.find((b) => b.backendOnly === backendOnly && b.grants.every((g, i) => g === grants[i]));
    if (same) return { ...same.model, role };
    const model = modelOf(this.tracked, role, backendOnly, grants);
    this.built.push({ backendOnly, grants, model });
    return model;
  }
}

/**
 * A role's view of a table with the table's identity: the identity's fields written out, then
 * the view's added. Spreading the identity (`{ ...identity, permission }`) took V8's generic
 * copy: a role model at 5,000 tables took 180 ms to make, 35 ms this way (the first request of
 * a role after a replace waits for it).
 */
function withIdentity<V extends object>(t: TableIdentity, view: V): TableIdentity & V {
  const identity: TableIdentity = { key: t.key, capabilities: t.capabilities, source: t.source, naming: t.naming, meta: t.meta, catalog: t.catalog, identifier: t.identifier, texts: t.texts };
  return Object.assign(identity, view);
}

function modelOf(tracked: TrackedTables, role: string, backendOnly: boolean, grants: Grants): RoleModel {
  const tables = new Map<string, TableInfo>();
  const mutable = new Map<string, MutableTableInfo>();
  const usable = <P extends { backendOnly: boolean }>(p: P | null) => (p && (!p.backendOnly || backendOnly) ? p : null);
  let at = 0;
  for (const { tables: sourceTables } of tracked.sources) {
    for (const { identity: table, columns, relationships, computedFields } of sourceTables) {
      const permission = grants[at] as SelectPermission | null;
      const ins = grants[at + 1] as InsertPermission | null;
      const upd = grants[at + 2] as UpdatePermission | null;
      const dl = grants[at + 3] as DeletePermission | null;
      at += 4;
      const { catalog } = table;
      // Columns the database takes no value for (SQL Server IDENTITY, computed) are no input's.
      const immutable = catalog.columns.some((c) => c.immutable) ? new Set(catalog.columns.filter((c) => c.immutable).map((c) => c.name)) : null;
      const writable = <P extends { columns: Set<string> }>(p: P | null): P | null => (p && immutable ? { ...p, columns: new Set([...p.columns].filter((c) => !immutable.has(c))) } : p);
      // A view PostgreSQL cannot insert into (update, delete from) gets no such mutation, as upstream.
      const insert = catalog.insertable ? writable(usable(ins)) : null;
      const update = catalog.updatable ? writable(usable(upd)) : null;
      const del = catalog.deletable ? usable(dl) : null;
      if (table.capabilities.mutations && (insert || update || del)) mutable.set(table.key, withIdentity(table, { columns, insert, update, delete: del, selectable: null, relationships }));
      if (!permission) continue;
      tables.set(
        table.key,
        withIdentity(table, {
          permission,
          columns: kept(columns, (c) => permission.columns.has(c.column.name)),
          relationships,
          computedFields: kept(computedFields, (c) => permission.computedFields.has(c.name)),
        }),
      );
    }
  }
  for (const m of mutable.values()) {
    m.selectable = tables.get(m.key) ?? null;
    m.relationships = kept(m.relationships, (r) => Boolean(mutable.get(r.targetKey)?.insert));
  }
  // Relationships only to tables the role can also see.
  for (const info of tables.values()) info.relationships = kept(info.relationships, (r) => tables.has(r.targetKey));
  const functions = tracked.sources.flatMap(({ source, naming, catalog }) => functionInfos(source, naming, catalog, tables));
  return { role, tables, functions, mutable };
}
