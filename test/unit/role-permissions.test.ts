import { describe, expect, it } from 'vitest';
import { TRUE } from '../../src/ir/boolexp.js';
import { RolePermissions } from '../../src/metadata/resolve/role-permissions.js';
import type { ResolvedPermission, ResolvedTable } from '../../src/metadata/resolve/types.js';

const permission = (columns: string[]): ResolvedPermission => ({
  kind: 'select',
  columns,
  computedFields: [],
  filter: null,
  check: null,
  set: {},
  limit: null,
  allowAggregations: false,
  queryRootFields: null,
  subscriptionRootFields: null,
  backendOnly: false,
});

// Resolution gives roles with the same permission body one resolved permission (resolve/permissions.ts).
const same = permission(['id']);
const table = {
  permissions: {
    select: new Map([
      ['a', same],
      ['b', same],
      ['c', permission(['name'])],
    ]),
    insert: new Map(),
    update: new Map(),
    delete: new Map(),
  },
} as unknown as ResolvedTable;

describe('RolePermissions', () => {
  it('derives a permission once for the roles that have it word for word', () => {
    const roles = new RolePermissions(new Map());
    expect(roles.select(table, 'a')).toBe(roles.select(table, 'b'));
    expect(roles.select(table, 'a')).toBe(new RolePermissions(new Map()).select(table, 'a'));
    expect(roles.select(table, 'c')).not.toBe(roles.select(table, 'a'));
    expect([...roles.select(table, 'c')!.columns.keys()]).toEqual(['name']);
  });

  it('combines the shared derivations of an inherited role without changing them', () => {
    const roles = new RolePermissions(new Map([['ac', ['a', 'c']]]));
    const combined = roles.select(table, 'ac')!;
    // Each column is granted by one parent only: visible where that parent's filter holds (rule 3).
    expect(Object.fromEntries(combined.columns)).toEqual({ id: TRUE, name: TRUE });
    expect(combined.filter).toEqual(TRUE);
    expect([...roles.select(table, 'a')!.columns.keys()]).toEqual(['id']);
  });
});
