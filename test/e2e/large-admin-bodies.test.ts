/**
 * Admin bodies over a mebibyte, whose long lists (a document's table entries) the metadata actor
 * reads entry by entry (util/lazy-json.ts): the same answers as any body, to a document that is
 * stored as sent, to one with a mistake in its last entry, and to text that is not JSON there.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';

const fx = useEngine();
const TABLES = 400;
// About 6 KiB per entry: the list is over a mebibyte.
// Named so that the order given is the order exported (by role, and tables by name).
const ROLES = Array.from({ length: 24 }, (_, r) => `role${String(r).padStart(2, '0')}`);
const name = (i: number) => `big${String(i).padStart(3, '0')}`;

const entry = (i: number) => ({
  table: { schema: 'public', name: name(i) },
  select_permissions: ROLES.map((role) => ({ role, permission: { columns: ['id', 'title'], filter: { _or: [{ id: { _eq: 'X-Service-User-Id' } }, { title: { _like: `%${role}%` } }] } } })),
});

const documentWith = async (tables: unknown[]) => {
  const current = (await fx.engine.metadata({ type: 'export_metadata', args: {} })).body;
  return { ...current, sources: current.sources.map((s: { name: string }) => (s.name === 'default' ? { ...s, tables } : s)) };
};

const exportedNames = async () => (await fx.engine.metadata({ type: 'export_metadata', args: {} })).body.sources[0].tables.map((t: { table: { name: string } }) => t.table.name);

beforeAll(async () => {
  await fx.db.sql(Array.from({ length: TABLES }, (_, i) => `CREATE TABLE ${name(i)} (id int PRIMARY KEY, title text);`).join('\n'));
});

describe('admin bodies with long lists', () => {
  it('replace_metadata stores a document of 400 tables as sent, and its permissions hold', async () => {
    const tables = Array.from({ length: TABLES }, (_, i) => entry(i));
    const body = { type: 'replace_metadata', args: await documentWith(tables) };
    expect(Buffer.byteLength(JSON.stringify(body))).toBeGreaterThan(1 << 20);
    const res = await fx.engine.metadata(body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const exported = (await fx.engine.metadata({ type: 'export_metadata', args: {} })).body.sources[0].tables;
    expect(exported).toEqual(tables);
    const r = await fetch(`${fx.engine.url}/v1/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-role': 'role03', 'x-service-user-id': '1' },
      body: JSON.stringify({ query: '{ big399 { id } }' }),
    });
    expect(await r.json()).toEqual({ data: { big399: [] } });
  });

  it('a mistake in the last entry is reported at its place, and nothing changes', async () => {
    const before = await exportedNames();
    const tables = Array.from({ length: TABLES }, (_, i) => entry(i));
    tables[TABLES - 1]!.select_permissions[0]!.permission.columns = ['id', 'missing'];
    const res = await fx.engine.metadata({ type: 'replace_metadata', args: await documentWith(tables.map((t, i) => (i === TABLES - 1 ? t : { ...t, table: { ...t.table } }))) });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('cannot continue due to inconsistent metadata');
    expect(JSON.stringify(res.body.internal)).toContain('"missing"');
    const listed = { ...(await documentWith([])) };
    const twice = await fx.engine.metadata({ type: 'replace_metadata', args: { ...listed, sources: listed.sources.map((s: object) => ({ ...s, tables: [...tables.slice(0, 5), entry(2)] })) } });
    expect(twice.status, JSON.stringify(twice.body)).toBe(400);
    // What is wrong in a document is reported at the document, as elsewhere.
    expect(twice.body).toEqual({ code: 'already-exists', path: '$.args', error: 'table "big002" is listed more than once' });
    expect(await exportedNames()).toEqual(before);
  });

  it('text that is not JSON inside the long list is refused as any body that is not JSON', async () => {
    const text = JSON.stringify({ type: 'replace_metadata', args: await documentWith(Array.from({ length: TABLES }, (_, i) => entry(i))) });
    const broken = text.replace('"big398"', '"big398" "x"');
    const res = await fx.engine.metadata(broken);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('parse-failed');
    expect(res.body.error).toMatch(/^invalid JSON in request body: /);
    expect(res.body.path).toBe('$');
  });

  it('a bulk of many commands is read as one', async () => {
    const args = Array.from({ length: 60 }, (_, i) => ({ type: 'pg_set_table_customization', args: { table: name(i), configuration: { comment: `c${i} ${'x'.repeat(20000)}` } } }));
    expect(Buffer.byteLength(JSON.stringify({ type: 'bulk', args }))).toBeGreaterThan(1 << 20);
    const res = await fx.engine.metadata({ type: 'bulk', args });
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(200);
    expect(res.body).toHaveLength(60);
    const tables = (await fx.engine.metadata({ type: 'export_metadata', args: {} })).body.sources[0].tables;
    expect(tables[59].configuration.comment).toMatch(/^c59 x{20000}$/);
  });

  it('a long list the document keeps as sent is stored whole, and stays so across changes', async () => {
    const notes = Array.from({ length: 3000 }, (_, i) => ({ n: i, text: `${i} ${'n'.repeat(400)}` }));
    const res = await fx.engine.metadata({ type: 'replace_metadata', args: { ...(await documentWith([entry(0)])), x_notes: notes } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await fx.engine.metadata({ type: 'export_metadata', args: {} })).body.x_notes).toEqual(notes);
    expect((await fx.engine.metadata({ type: 'pg_set_table_customization', args: { table: name(0), configuration: { comment: 'c' } } })).status).toBe(200);
    const exported = (await fx.engine.metadata({ type: 'export_metadata', args: {} })).body;
    expect(exported.x_notes).toEqual(notes);
    expect(exported.sources[0].tables[0].configuration).toEqual({ comment: 'c' });
  });
});
