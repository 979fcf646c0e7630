import { describe, expect, it } from 'vitest';
import { changesMostTables, diffDocuments } from '../../src/metadata/document-parts.js';
import type { Metadata, TableMetadata } from '../../src/metadata/types.js';
import { encodeSnapshotUpdate, SnapshotReader } from '../../src/protocol/snapshot.js';
import { deepFreeze, produce } from '../../src/util/draft.js';

const table = (name: string, extra: Partial<TableMetadata> = {}): TableMetadata => ({ table: { schema: 'public', name }, ...extra });

const doc = deepFreeze({
  version: 3,
  sources: [
    {
      name: 'default',
      kind: 'postgres',
      tables: [table('a', { select_permissions: [{ role: 'u', permission: { columns: '*', filter: { x: { _eq: 'é"\\' } } } }] }), table('b', { is_enum: true }), table('c')],
      configuration: { connection_info: { database_url: { from_env: 'X' } } },
    },
  ],
  inherited_roles: [{ role_name: 'r', role_set: ['u', 'v'] }],
} as Metadata);

const kinds = (m: Metadata, n: Metadata) => diffDocuments(m, n)?.tables.map((t) => t.kind);

describe('diffDocuments', () => {
  it('is null for the same document, and for an equal copy', () => {
    expect(diffDocuments(doc, doc)).toBeNull();
    expect(diffDocuments(doc, deepFreeze(structuredClone(doc)))).toBeNull();
  });

  it('names only the entries a change touched, and appended ones', () => {
    const next = produce(doc, (d) => {
      d.sources[0]!.tables[1]!.comment = 'changed';
      d.sources[0]!.tables.push(table('d'));
    });
    const diff = diffDocuments(doc, next)!;
    expect(diff.skeleton).toBeNull();
    expect(diff.tables).toEqual([{ source: 'default', kind: 'some', upserts: [next.sources[0]!.tables[1], next.sources[0]!.tables[3]], deletes: [] }]);
  });

  it('deletes by key; rewrites a source whose entries changed order or got one in the middle', () => {
    expect(diffDocuments(doc, produce(doc, (d) => void d.sources[0]!.tables.splice(1, 1)))!.tables).toEqual([{ source: 'default', kind: 'some', upserts: [], deletes: ['{"schema":"public","name":"b"}'] }]);
    expect(kinds(doc, produce(doc, (d) => void d.sources[0]!.tables.reverse()))).toEqual(['all']);
    expect(kinds(doc, produce(doc, (d) => void d.sources[0]!.tables.splice(1, 0, table('z'))))).toEqual(['all']);
  });

  it('reports a changed skeleton, a new source and a gone one', () => {
    const next = produce(doc, (d) => {
      d.inherited_roles = [];
      d.sources[0]!.name = 'other';
    });
    const diff = diffDocuments(doc, next)!;
    expect(JSON.parse(diff.skeleton!)).toEqual({ ...next, sources: [{ ...next.sources[0], tables: [] }] });
    expect(diff.tables.map((t) => [t.source, t.kind])).toEqual([['other', 'all'], ['default', 'gone']]);
  });
});

describe('changesMostTables (a change that goes as a whole snapshot update)', () => {
  it('is true when more than half of the entries are added, changed or removed', () => {
    const one = produce(doc, (d) => void (d.sources[0]!.tables[0]!.comment = 'x'));
    expect(changesMostTables(diffDocuments(doc, one), one)).toBe(false);
    const two = produce(doc, (d) => d.sources[0]!.tables.slice(0, 2).forEach((t) => (t.comment = 'x')));
    expect(changesMostTables(diffDocuments(doc, two), two)).toBe(true);
    expect(changesMostTables(diffDocuments(doc, doc), doc)).toBe(false);
  });
});

describe('snapshot updates', () => {
  const sources = { default: { kind: 'postgres', introspection: null } };
  const update = (generation: number, base: Metadata | null, next: Metadata, baseGeneration: number | null) =>
    encodeSnapshotUpdate({ version: generation, generation, base: baseGeneration, diff: diffDocuments(base, next), sourcesJson: base ? null : JSON.stringify(sources), sourcesId: 1, inconsistencies: [], remotesJson: null, remoteSchemaPermissions: false });

  it('a reader following whole and partial updates holds the document, sharing what did not change', async () => {
    const reader = new SnapshotReader();
    const first = reader.apply(await update(1, null, doc, null));
    expect(JSON.stringify(first.metadata)).toBe(JSON.stringify(doc));
    expect(Object.isFrozen(first.metadata.sources[0]!.tables)).toBe(true);

    const next = produce(doc, (d) => {
      d.sources[0]!.tables[0]!.comment = 'x';
      d.sources[0]!.tables.splice(1, 1);
      d.sources[0]!.tables.push(table('d'));
    });
    const second = reader.apply(await update(2, doc, next, 1));
    expect(JSON.stringify(second.metadata)).toBe(JSON.stringify(next));
    expect(second.metadata.sources[0]!.tables[1]).toBe(first.metadata.sources[0]!.tables[2]);
    // The changed entry keeps its unchanged parts (what resolution keeps its work by).
    expect(second.metadata.sources[0]!.tables[0]!.table).toBe(first.metadata.sources[0]!.tables[0]!.table);
    expect(second.metadata.sources[0]!.tables[0]!.select_permissions).toBe(first.metadata.sources[0]!.tables[0]!.select_permissions);
    expect(second.sources).toBe(first.sources);

    // Nothing changed in the document (a catalog reload, say): the source is the same object.
    const third = reader.apply(await update(3, next, next, 2));
    expect(third.metadata.sources[0]).toBe(second.metadata.sources[0]);
  });

  it('a whole update keeps what it repeats of the last snapshot: the catalogs and the parts of each entry', async () => {
    const reader = new SnapshotReader();
    const first = reader.apply(await update(1, null, doc, null));
    const next = produce(doc, (d) => void (d.sources[0]!.tables[0]!.comment = 'x'));
    const second = reader.apply(await update(2, null, next, null));
    expect(JSON.stringify(second.metadata)).toBe(JSON.stringify(next));
    expect(second.sources).toBe(first.sources);
    expect(second.metadata.sources[0]!.tables[0]!.select_permissions).toBe(first.metadata.sources[0]!.tables[0]!.select_permissions);
    expect(second.metadata.sources[0]!.tables[2]!.table).toBe(first.metadata.sources[0]!.tables[2]!.table);
  });

  it('a changed permission list keeps the other roles\' permissions, and a whole update keeps equal parts of the skeleton', async () => {
    const reader = new SnapshotReader();
    const first = reader.apply(await update(1, null, doc, null));
    const added = produce(doc, (d) => void d.sources[0]!.tables[0]!.select_permissions!.unshift({ role: 'new', permission: { columns: '*', filter: {} } }));
    const second = reader.apply(await update(2, doc, added, 1));
    expect(second.metadata.sources[0]!.tables[0]!.select_permissions![1]).toBe(first.metadata.sources[0]!.tables[0]!.select_permissions![0]);
    const third = reader.apply(await update(3, null, added, null));
    expect(third.metadata.inherited_roles).toBe(first.metadata.inherited_roles);
    expect(third.metadata.sources[0]!.configuration).toBe(first.metadata.sources[0]!.configuration);
  });

  it('reads catalogs named anew, and entries whose text escapes line breaks', async () => {
    const reader = new SnapshotReader();
    const first = reader.apply(await update(1, null, doc, null));
    const other = { default: { kind: 'postgres', introspection: null, enumValues: { 'public.b': [{ value: 'x', comment: 'a\nb' }] } } };
    const lines = produce(doc, (d) => void (d.sources[0]!.tables[2]!.comment = 'one\ntwo\r\u2028three'));
    const second = reader.apply(await encodeSnapshotUpdate({ version: 2, generation: 2, base: null, diff: diffDocuments(null, lines), sourcesJson: JSON.stringify(other), sourcesId: 2, inconsistencies: [], remotesJson: null, remoteSchemaPermissions: false }));
    expect(second.sources).not.toBe(first.sources);
    expect(second.sources).toEqual(other);
    expect(JSON.stringify(second.metadata)).toBe(JSON.stringify(lines));
  });

  it('a staged update is read ahead and taken as read when it is applied; another one, or an unstaged one, is read when applied', async () => {
    const reader = new SnapshotReader();
    const first = reader.apply(await update(1, null, doc, null));
    const next = produce(doc, (d) => void (d.sources[0]!.tables[0]!.comment = 'x'));
    const staged = reader.stage(await update(2, doc, next, 1));
    // Staging changes nothing the reader holds.
    expect(reader.generation).toBe(1);
    expect(reader.snapshot).toBe(first);
    const applied = reader.apply(await update(2, doc, next, 1));
    expect(applied).toBe(staged);
    expect(reader.generation).toBe(2);

    // A change that failed is staged and never published: the next update (another generation) is read on its own.
    const dropped = reader.stage(await update(3, next, doc, 2));
    const published = reader.apply(await update(4, next, next, 2));
    expect(published).not.toBe(dropped);
    expect(JSON.stringify(published.metadata)).toBe(JSON.stringify(next));
    reader.stage(await update(5, next, doc, 4));
    reader.unstage();
    expect(JSON.stringify(reader.apply(await update(5, next, next, 4)).metadata)).toBe(JSON.stringify(next));
  });

  it('refuses an update that does not follow the generation it holds', async () => {
    const reader = new SnapshotReader();
    reader.apply(await update(1, null, doc, null));
    const stale = await update(3, doc, doc, 2);
    expect(() => reader.apply(stale)).toThrow(/generation 2/);
  });
});
