import { describe, expect, it } from 'vitest';
import { EVERYTHING, metadataChanges } from '../../src/metadata/changes.js';
import type { Metadata } from '../../src/metadata/types.js';
import { deepFreeze, produce } from '../../src/util/draft.js';

const doc = (): Metadata =>
  deepFreeze({
    version: 3,
    sources: [
      { name: 'a', kind: 'postgres', configuration: { x: 1 }, tables: [{ table: { schema: 'public', name: 't1' } }, { table: { schema: 'public', name: 't2' } }] },
      { name: 'b', kind: 'postgres', configuration: { x: 2 }, tables: [{ table: { schema: 'public', name: 't3' } }] },
    ],
  } as Metadata);

const noCatalogChange = () => false;

describe('metadataChanges', () => {
  it('keeps every plan when only the TLS allow-list changed', () => {
    const before = doc();
    const after = produce(before, (d) => {
      d.network = { tls_allowlist: [{ host: 'hooks.test' }] };
    });
    expect(metadataChanges(before, after, noCatalogChange)).toEqual({ everything: false, sources: [], tables: [] });
  });

  it('names the one table a permission change touched', () => {
    const before = doc();
    const after = produce(before, (d) => {
      d.sources[0]!.tables[1]!.select_permissions = [{ role: 'user', permission: { columns: '*', filter: {} } }];
    });
    expect(metadataChanges(before, after, noCatalogChange)).toEqual({ everything: false, sources: [], tables: [{ key: 'a\u0000public.t2', roles: ['user'] }] });
  });

  it('names the roles whose permissions changed, with the inherited roles built on them; any other change counts for every role', () => {
    const perm = (role: string, columns: string[]) => ({ role, permission: { columns, filter: {} } });
    const before = produce(doc(), (d) => {
      d.inherited_roles = [
        { role_name: 'staff', role_set: ['editor', 'viewer'] },
        { role_name: 'everyone', role_set: ['staff', 'guest'] },
        { role_name: 'other', role_set: ['guest', 'viewer'] },
      ];
      d.sources[0]!.tables[0]!.select_permissions = [perm('editor', ['id']), perm('guest', ['id'])];
      d.sources[0]!.tables[0]!.update_permissions = [perm('guest', ['id'])];
    });
    const edited = produce(before, (d) => {
      d.sources[0]!.tables[0]!.select_permissions![0] = perm('editor', ['id', 'name']);
      d.sources[0]!.tables[0]!.delete_permissions = [{ role: 'viewer', permission: { filter: {} } }];
    });
    const [change] = metadataChanges(before, edited, noCatalogChange).tables;
    expect(change!.key).toBe('a\u0000public.t1');
    expect(change!.roles!.sort()).toEqual(['editor', 'everyone', 'other', 'staff', 'viewer']);
    const renamed = produce(before, (d) => {
      d.sources[0]!.tables[0]!.configuration = { custom_name: 'first' };
    });
    expect(metadataChanges(before, renamed, noCatalogChange).tables).toEqual([{ key: 'a\u0000public.t1', roles: null }]);
  });

  it('names added and removed tables', () => {
    const before = doc();
    const after = produce(before, (d) => {
      d.sources[1]!.tables = [{ table: { schema: 'public', name: 't4' } }];
    });
    expect(metadataChanges(before, after, noCatalogChange).tables.sort((x, y) => (x.key < y.key ? -1 : 1))).toEqual([
      { key: 'b\u0000public.t3', roles: null },
      { key: 'b\u0000public.t4', roles: null },
    ]);
  });

  it('names a source whose settings or catalog changed, and a dropped source', () => {
    const before = doc();
    const after = produce(before, (d) => {
      d.sources[0]!.customization = { root_fields: { prefix: 'p_' } };
      d.sources.pop();
    });
    expect(metadataChanges(before, after, noCatalogChange)).toEqual({ everything: false, sources: ['a', 'b'], tables: [] });
    expect(metadataChanges(before, before, (s) => s === 'b')).toEqual({ everything: false, sources: ['b'], tables: [] });
  });

  it('counts any other section (inherited roles, ...) and a first version as everything', () => {
    const before = doc();
    const after = produce(before, (d) => {
      d.inherited_roles = [{ role_name: 'r', role_set: ['a', 'b'] }];
    });
    expect(metadataChanges(before, after, noCatalogChange)).toBe(EVERYTHING);
    expect(metadataChanges(null, before, noCatalogChange)).toBe(EVERYTHING);
  });
});
