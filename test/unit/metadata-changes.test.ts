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
  it('names the one table a permission change touched', () => {
    const before = doc();
    const after = produce(before, (d) => {
      d.sources[0]!.tables[1]!.select_permissions = [{ role: 'user', permission: { columns: '*', filter: {} } }];
    });
    expect(metadataChanges(before, after, noCatalogChange)).toEqual({ everything: false, sources: [], tables: ['a\u0000public.t2'] });
  });

  it('names added and removed tables', () => {
    const before = doc();
    const after = produce(before, (d) => {
      d.sources[1]!.tables = [{ table: { schema: 'public', name: 't4' } }];
    });
    expect(metadataChanges(before, after, noCatalogChange).tables.sort()).toEqual(['b\u0000public.t3', 'b\u0000public.t4']);
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
