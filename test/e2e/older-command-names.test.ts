/**
 * The older unprefixed names of PostgreSQL commands on /v1/metadata, as the well-known engine
 * still takes them: each does what its `pg_` form does, on the default source.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';

const fx = useEngine();
const meta = (type: string, args: unknown) => fx.engine.metadata({ type, args });
const exported = async () => (await meta('export_metadata', {})).body.sources[0].tables;

beforeAll(async () => {
  await fx.db.sql(`
    CREATE TABLE mood (value text PRIMARY KEY, comment text);
    INSERT INTO mood VALUES ('happy', 'glad'), ('sad', null);
    CREATE TABLE author (id serial PRIMARY KEY, name text NOT NULL);
    CREATE FUNCTION shout(author) RETURNS text AS $$ SELECT upper($1.name) $$ LANGUAGE sql STABLE;
  `);
  for (const table of ['mood', 'author']) expect((await meta('pg_track_table', { table })).status).toBe(200);
});

describe('unprefixed PostgreSQL commands on /v1/metadata', () => {
  it('set_table_is_enum, add_computed_field and drop_computed_field', async () => {
    expect(await meta('set_table_is_enum', { table: 'mood', is_enum: true })).toEqual({ status: 200, body: { message: 'success' } });
    expect(await meta('add_computed_field', { table: 'author', name: 'shouted', definition: { function: 'shout' } })).toEqual({ status: 200, body: { message: 'success' } });
    const tables = await exported();
    expect(tables.find((t: any) => t.table.name === 'mood').is_enum).toBe(true);
    expect(tables.find((t: any) => t.table.name === 'author').computed_fields).toEqual([{ name: 'shouted', definition: { function: { schema: 'public', name: 'shout' } } }]);
    expect(await meta('drop_computed_field', { table: 'author', name: 'shouted' })).toEqual({ status: 200, body: { message: 'success' } });
    expect((await exported()).find((t: any) => t.table.name === 'author').computed_fields).toBeUndefined();
  });

  it('create_event_trigger, invoke_event_trigger, redeliver_event and delete_event_trigger', async () => {
    const created = await meta('create_event_trigger', { name: 'author_changed', table: 'author', webhook: 'http://127.0.0.1:9/hook', insert: { columns: '*' }, enable_manual: true });
    expect(created).toEqual({ status: 200, body: { message: 'success' } });
    await fx.db.sql(`INSERT INTO author (name) VALUES ('ann')`);
    const invoked = await meta('invoke_event_trigger', { name: 'author_changed', payload: { id: 1 } });
    expect(invoked.status).toBe(200);
    expect(invoked.body.event_id).toEqual(expect.any(String));
    // An event that does not exist: the command is known, the event is not.
    expect((await meta('redeliver_event', { event_id: '00000000-0000-0000-0000-000000000000' })).body).toMatchObject({ code: 'not-exists' });
    expect(await meta('delete_event_trigger', { name: 'author_changed' })).toEqual({ status: 200, body: { message: 'success' } });
    expect((await exported()).find((t: any) => t.table.name === 'author').event_triggers).toBeUndefined();
  });
});
