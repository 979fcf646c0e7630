import { describe, expect, it } from 'vitest';
import { shareEqualPermissions, sharedBodies, withSharedBodies, withoutSharedBodies } from '../../src/metadata/equal-permissions.js';
import type { TableMetadata } from '../../src/metadata/types.js';
import { SnapshotReader, encodeSnapshotUpdate } from '../../src/protocol/snapshot.js';
import { diffDocuments, parseTableEntry, tableEntryJson, tableEntryText } from '../../src/metadata/document-parts.js';
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

  it('makes the equal parts of different bodies one object, across the lists of the entry', () => {
    const entry: TableMetadata = {
      table: { schema: 'public', name: 't' },
      select_permissions: [{ role: 'a', permission: { ...body(), limit: 1 } }, { role: 'b', permission: { ...body(), limit: 2 } }],
      update_permissions: [{ role: 'a', permission: { columns: ['id'], filter: { owner: { _eq: 'X-Service-User-Id' } }, check: {} } }],
      delete_permissions: [{ role: 'a', permission: { filter: { id: { _gt: 1 } } } }],
    };
    shareEqualPermissions(entry);
    const [a, b] = entry.select_permissions!.map((p) => p.permission as Record<string, unknown>);
    const update = entry.update_permissions![0]!.permission as Record<string, unknown>;
    expect(b!.filter).toBe(a!.filter);
    expect(b!.columns).toBe(a!.columns);
    expect(update.filter).toBe(a!.filter);
    expect(update.columns).toBe(a!.columns);
    expect((entry.delete_permissions![0]!.permission as Record<string, unknown>).filter).not.toBe(a!.filter);
    expect([a!.limit, b!.limit]).toEqual([1, 2]);
  });

  it('keeps apart bodies that differ in a scalar, a key or its order, among many roles', () => {
    const bodies = [
      { ...body(), limit: 1 },
      { ...body(), limit: '1' },
      body(),
      { filter: body().filter, columns: ['id'] },
      { ...body(), limit: 1 },
    ];
    const many = Array.from({ length: 200 }, (_, i) => ({ role: `r${i}`, permission: structuredClone(bodies[i % bodies.length]!) }));
    const entry: TableMetadata = { table: { schema: 'public', name: 't' }, select_permissions: many };
    shareEqualPermissions(entry);
    const distinct = new Set(entry.select_permissions!.map((p) => p.permission));
    expect(distinct.size).toBe(4);
    expect(entry.select_permissions![4]!.permission).toBe(entry.select_permissions![0]!.permission);
    expect(entry.select_permissions![5]!.permission).toBe(entry.select_permissions![0]!.permission);
    expect(entry.select_permissions!.map((p) => JSON.stringify(p.permission))).toEqual(many.map((_, i) => JSON.stringify(bodies[i % bodies.length])));
  });

  it('finds equal bodies and parts among many different ones as among a few', () => {
    // Ten different filters, each given to several roles in turn: past a few of a kind, they are found by their text.
    const filter = (i: number) => ({ id: { _neq: i } });
    const many = Array.from({ length: 40 }, (_, i) => ({ role: `r${i}`, permission: { columns: ['id'], filter: filter(i % 10) } }));
    const deletes = Array.from({ length: 10 }, (_, i) => ({ role: `r${i}`, permission: { filter: filter(9 - i) } }));
    const entry: TableMetadata = { table: { schema: 'public', name: 't' }, select_permissions: many, delete_permissions: deletes };
    shareEqualPermissions(entry);
    const selects = entry.select_permissions!.map((p) => p.permission as Record<string, unknown>);
    expect(new Set(selects).size).toBe(10);
    for (let i = 10; i < 40; i++) expect(selects[i]).toBe(selects[i % 10]);
    expect(new Set(selects.map((b) => b.columns)).size).toBe(1);
    entry.delete_permissions!.forEach((p, i) => expect((p.permission as Record<string, unknown>).filter).toBe(selects[9 - i]!.filter));
    expect(selects.map((b) => JSON.stringify(b.filter))).toEqual(many.map((_, i) => JSON.stringify(filter(i % 10))));
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

  it('lets a snapshot update write a shared body once, and its reader share it again', async () => {
    const shared = body();
    const entry = { table: { schema: 'public', name: 't' }, select_permissions: [{ role: 'a', permission: shared }, { role: 'b', permission: { columns: ['id'], filter: {} } }, { role: 'c', permission: shared }] };
    const doc = deepFreeze({ version: 3, sources: [{ name: 'default', kind: 'postgres', configuration: {}, tables: [entry] }] } as Metadata);
    const update = await encodeSnapshotUpdate({ version: 1, generation: 1, base: null, diff: diffDocuments(null, doc), sourcesJson: '{}', sourcesId: 1, inconsistencies: [], remotesJson: '{}', remoteSchemaPermissions: false });
    expect(Buffer.from(update).toString().split('X-Service-User-Id').length).toBe(2);
    const read = new SnapshotReader().apply(update).metadata.sources[0]!.tables[0]!;
    expect(JSON.stringify(read)).toBe(JSON.stringify(entry));
    expect(read.select_permissions![2]!.permission).toBe(read.select_permissions![0]!.permission);
  });
});

describe('shared bodies in a snapshot entry', () => {
  it('names the items whose body is an earlier item\'s object, and puts them back', () => {
    const shared = body();
    const entry: TableMetadata = { table: { schema: 'public', name: 't' }, update_permissions: [{ role: 'a', permission: shared }, { role: 'b', permission: body() }, { role: 'c', permission: shared }] };
    const refs = sharedBodies(entry);
    expect(refs).toEqual({ update_permissions: [0, 1, 0] });
    expect(sharedBodies({ ...entry, update_permissions: entry.update_permissions!.slice(0, 2) })).toBeNull();
    const written = withoutSharedBodies(entry, refs!);
    expect(written.update_permissions![2]!.permission).toBeNull();
    expect(entry.update_permissions![2]!.permission).toBe(shared);
    const back = withSharedBodies(JSON.parse(JSON.stringify(written)) as TableMetadata, refs!);
    expect(back).toEqual(entry);
    expect(back.update_permissions![2]!.permission).toBe(back.update_permissions![0]!.permission);
  });

  it('is the text the store keeps: the entry when no body is shared, else [entry, shared], read back with the bodies shared', () => {
    const shared = body();
    const plain: TableMetadata = deepFreeze({ table: { schema: 'public', name: 'p' }, select_permissions: [{ role: 'a', permission: body() }, { role: 'b', permission: body() }] });
    expect(tableEntryText(plain)).toBe(tableEntryJson(plain));
    expect(parseTableEntry(tableEntryText(plain))).toEqual(plain);
    const entry: TableMetadata = deepFreeze({ table: { schema: 'public', name: 't' }, select_permissions: [{ role: 'a', permission: shared }, { role: 'b', permission: shared }] });
    const text = tableEntryText(entry);
    expect(text.split('X-Service-User-Id').length).toBe(2);
    expect(JSON.parse(text)[1]).toEqual({ select_permissions: [0, 0] });
    const back = parseTableEntry(text);
    expect(tableEntryJson(back)).toBe(tableEntryJson(entry));
    expect(back.select_permissions![1]!.permission).toBe(back.select_permissions![0]!.permission);
    expect(() => parseTableEntry('[{"table":{"schema":"public","name":"t"}}]')).toThrow(/neither an entry nor/);
  });

  it('refuses a name of no earlier body', () => {
    const entry: TableMetadata = { table: { schema: 'public', name: 't' }, select_permissions: [{ role: 'a', permission: null }] };
    expect(() => withSharedBodies(structuredClone(entry), { select_permissions: [1] })).toThrow(/no shared permission body/);
    expect(() => withSharedBodies(structuredClone(entry), { insert_permissions: [0] })).toThrow(/are not those/);
    const two: TableMetadata = { table: { schema: 'public', name: 't' }, select_permissions: [{ role: 'a', permission: null }, { role: 'b', permission: null }] };
    expect(() => withSharedBodies(two, { select_permissions: [0, 0] })).toThrow(/no shared permission body/);
  });
});
