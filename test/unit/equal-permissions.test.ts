import { describe, expect, it } from 'vitest';
import { shareEqualPermissions } from '../../src/metadata/equal-permissions.js';
import type { TableMetadata } from '../../src/metadata/types.js';
import { SnapshotReader, encodeSnapshotUpdate } from '../../src/protocol/snapshot.js';
import { diffDocuments } from '../../src/metadata/document-parts.js';
import { deepFreeze } from '../../src/util/draft.js';
import type { Metadata } from '../../src/metadata/types.js';

const body = () => ({ columns: ['id'], filter: { owner: { _eq: 'X-Service-User-Id' } } });

describe('shareEqualPermissions', () => {
  it('makes the equal bodies of a list one object and leaves the others', () => {
    const entry: TableMetadata = {
      table: { schema: 'public', name: 't' },
      select_permissions: [{ role: 'a', permission: body() }, { role: 'b', permission: { columns: ['id'], filter: {} } }, { role: 'c', permission: body() }],
      update_permissions: [{ role: 'a', permission: body() }],
    };
    shareEqualPermissions(entry);
    const [a, b, c] = entry.select_permissions!;
    expect(c!.permission).toBe(a!.permission);
    expect(b!.permission).not.toBe(a!.permission);
    // Bodies are shared within a list: an update permission is another kind of body.
    expect(entry.update_permissions![0]!.permission).not.toBe(a!.permission);
    expect(entry.select_permissions!.map((p) => p.role)).toEqual(['a', 'b', 'c']);
  });

  it('leaves frozen items as they are', () => {
    const entry: TableMetadata = { table: { schema: 'public', name: 't' }, select_permissions: [{ role: 'a', permission: body() }, Object.freeze({ role: 'b', permission: body() })] };
    shareEqualPermissions(entry);
    expect(entry.select_permissions![1]!.permission).not.toBe(entry.select_permissions![0]!.permission);
  });

  it('is applied by the snapshot reader to the entries it reads', async () => {
    const doc = deepFreeze({ version: 3, sources: [{ name: 'default', kind: 'postgres', configuration: {}, tables: [{ table: { schema: 'public', name: 't' }, select_permissions: [{ role: 'a', permission: body() }, { role: 'b', permission: body() }] }] }] } as Metadata);
    const update = await encodeSnapshotUpdate({ version: 1, generation: 1, base: null, diff: diffDocuments(null, doc), sourcesJson: '{}', sourcesId: 1, inconsistencies: [], remotesJson: '{}', remoteSchemaPermissions: false });
    const [a, b] = new SnapshotReader().apply(update).metadata.sources[0]!.tables[0]!.select_permissions!;
    expect(b!.permission).toBe(a!.permission);
    expect(Object.isFrozen(a!.permission)).toBe(true);
  });
});
