/**
 * What the caller of a deprecated data operation (`/v1/query` select, count, insert, update,
 * delete) may do, read from the resolved permissions (`RolePermissions`, as GraphQL reads them):
 * admin everything, another role what its permissions grant. Refusals are the well-known engine's
 * (`Hasura.RQL.DML.Internal`): 400 `permission-denied` in its words.
 */
import { badRequest, type ApiError } from '../errors/admin.js';
import type { QualifiedName } from '../catalog/types.js';
import { isTrue, type BoolExp } from '../ir/boolexp.js';
import { showTable } from './names.js';
import type { DeletePermission, InsertPermission, RolePermissions, SelectPermission, UpdatePermission } from './resolve/role-permissions.js';
import type { ResolvedTable } from './resolve/types.js';

/** Why else an operation needs the select permission: what the well-known engine adds to the refusal. */
const SELECT_NEEDED = {
  count: '; "count" is only allowed if the role has "select" permissions on the table',
  update: '; "update" is only allowed if the role has "select" permission as "where" can\'t be used without "select" permission on the table',
  delete: '; "delete" is only allowed if the role has "select" permission as "where" can\'t be used without "select" permission on the table',
  returning: '; "returning" can only be used if the role has "select" permission on the table',
} as const;

export type SelectPurpose = keyof typeof SELECT_NEEDED;

const q = JSON.stringify;
const denied = (message: string, path: string): ApiError => badRequest('permission-denied', message, path);

/** `b` and a permission's `filter`, leaving out a filter that lets every row through. */
const withFilter = (b: BoolExp, filter: BoolExp): BoolExp => (isTrue(filter) ? b : isTrue(b) ? filter : { kind: 'and', items: [b, filter] });

export class DmlPermissions {
  constructor(
    readonly role: string,
    private readonly permissions: RolePermissions,
    /** A tracked table of the source (a relationship's or `_exists`'s target). */
    private readonly lookup: (t: QualifiedName) => ResolvedTable | undefined,
  ) {}

  get isAdmin(): boolean {
    return this.role === 'admin';
  }

  /** The role's select permission on `t`; `purpose`: the operation that needs it besides a select. */
  select(t: ResolvedTable, path: string, purpose?: SelectPurpose): SelectPermission {
    return this.permissions.select(t, this.role) ?? this.refuse('select', t, path, purpose ? SELECT_NEEDED[purpose] : '');
  }

  insert(t: ResolvedTable, path: string): InsertPermission {
    return this.permissions.insert(t, this.role) ?? this.refuse('insert', t, path);
  }

  update(t: ResolvedTable, path: string): UpdatePermission {
    return this.permissions.update(t, this.role) ?? this.refuse('update', t, path);
  }

  delete(t: ResolvedTable, path: string): DeletePermission {
    return this.permissions.delete(t, this.role) ?? this.refuse('delete', t, path);
  }

  /** An insert's `on_conflict` updates existing rows: the update permission says how. */
  upsert(t: ResolvedTable, path: string): UpdatePermission {
    const p = this.permissions.update(t, this.role);
    if (!p) throw denied(`upsert is not allowed for role ${q(this.role)} since update permissions are not defined`, path);
    return p;
  }

  /** The select permission on a relationship's target, which a nested select or a `where` reads through. */
  related(relationship: string, target: ResolvedTable, path: string): SelectPermission {
    const p = this.permissions.select(target, this.role);
    if (!p) throw denied(`role ${q(this.role)} does not have permission to read relationship ${q(relationship)}; no permission on table ${q(showTable(target.name))}`, path);
    return p;
  }

  /**
   * A column an operation reads (`select`) or writes (`insert`, `update`): refused unless granted.
   * Admin is granted every column (one that does not exist is the caller's to report).
   */
  column(kind: 'select' | 'insert' | 'update', granted: { has(name: string): boolean }, name: string, path: string): void {
    if (this.isAdmin || granted.has(name)) return;
    throw denied(`role ${q(this.role)} does not have permission to ${kind} column ${q(name)}`, path);
  }

  /** A column the permission presets: its value is not the input's to give. */
  preset(kind: 'insert' | 'update', name: string, path: string): never {
    const why = kind === 'insert' ? `column ${q(name)} is not insertable for role ${q(this.role)}` : `column ${q(name)} is not updatable for role ${q(this.role)}; its value is predefined in permission`;
    throw badRequest('not-supported', why, path);
  }

  /**
   * A `where` on `t` as the role may use it: every column it reads must be selectable (read as
   * NULL where an inherited role shows it only conditionally), and rows reached through a
   * relationship, a computed field or `_exists` must be ones the role may select, as the well-known
   * engine's `checkSelPerm` does.
   */
  where(b: BoolExp, t: ResolvedTable, path: string): BoolExp {
    return this.isAdmin ? b : this.restrict(b, this.select(t, path), path);
  }

  private restrict(b: BoolExp, p: SelectPermission, path: string): BoolExp {
    switch (b.kind) {
      case 'and':
      case 'or':
        return { kind: b.kind, items: b.items.map((x) => this.restrict(x, p, path)) };
      case 'not':
        return { kind: 'not', item: this.restrict(b.item, p, path) };
      case 'column': {
        this.column('select', p.columns, b.column, path);
        const when = p.columns.get(b.column);
        return when ? { ...b, visibleWhen: when } : b;
      }
      case 'computed': {
        if (!p.computedFields.has(b.field)) throw denied(`role ${q(this.role)} does not have permission to select computed field ${q(b.field)}`, path);
        const when = p.computedFields.get(b.field);
        return when ? { ...b, visibleWhen: when } : b;
      }
      case 'relationship': {
        const target = this.target(b.join.target, path);
        const inner = this.related(b.relationship, target, path);
        return { ...b, where: this.restrict(b.where, inner, path), permission: inner.filter };
      }
      case 'computed_rows': {
        const target = this.target(b.table, path);
        const inner = this.permissions.select(target, this.role);
        if (!inner) throw denied(`role ${q(this.role)} does not have permission to read computed field ${q(b.field)}; no permission on table ${q(showTable(b.table))}`, path);
        return { ...b, where: withFilter(this.restrict(b.where, inner, path), inner.filter) };
      }
      case 'exists': {
        const target = this.target(b.table, path);
        const inner = this.select(target, path);
        return { ...b, where: withFilter(this.restrict(b.where, inner, path), inner.filter) };
      }
    }
  }

  /** A table a boolean expression reaches; one that did not resolve has no permission to give. */
  private target(name: QualifiedName, path: string): ResolvedTable {
    const t = this.lookup(name);
    if (!t) throw denied(`select on ${q(showTable(name))} for role ${q(this.role)} is not allowed. `, path);
    return t;
  }

  /**
   * Session variables the statement reads that the request does not carry: refused before
   * anything runs, as the well-known engine refuses a permission's missing headers.
   */
  requireSession(names: readonly string[], session: Readonly<Record<string, string>>, path: string): void {
    // Admin's `where` reads a missing one as NULL, as it always has.
    if (this.isAdmin) return;
    const missing = names.find((n) => session[n] === undefined);
    if (missing !== undefined) throw badRequest('not-found', `${q(missing)} header is expected but not found`, path);
  }

  private refuse(kind: string, t: ResolvedTable, path: string, why = ''): never {
    throw denied(`${kind} on ${q(showTable(t.name))} for role ${q(this.role)} is not allowed. ${why}`, path);
  }
}
