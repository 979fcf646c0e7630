/**
 * Query tags (docs/operations.md "Query tags"): the comment appended to a GraphQL request's
 * statements, read back from `pg_stat_activity` while a slow statement runs (a view that sleeps);
 * `set_query_tags` per source (`format`, `omit_request_id`, `disabled`), stored and exported in
 * the source's `query_tags`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';

const ADMIN = { 'x-service-admin-secret': 'adm' };
const fx = useEngine({ SERVICE_GRAPHQL_ADMIN_SECRET: 'adm' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const SLOW = { query: 'query Slow { slow_note { id } }', operationName: 'Slow' };

beforeAll(async () => {
  await fx.db.sql(`CREATE TABLE note (id int PRIMARY KEY); INSERT INTO note VALUES (1);
    CREATE VIEW slow_note AS SELECT n.id FROM note n, pg_sleep(0.6);`);
  expect((await fx.engine.metadata({ type: 'pg_track_table', args: { table: 'slow_note' } }, ADMIN)).status).toBe(200);
});

afterAll(async () => {
  await fx.engine.metadata({ type: 'set_query_tags', args: { source_name: 'default' } }, ADMIN);
});

/** Runs `body` (its field answered under `field`) and returns the text `pg_stat_activity` shows for its statement while it sleeps. */
async function activityOf(body: unknown, headers: Record<string, string> = {}, field = 'slow_note'): Promise<string> {
  const running = fx.engine.post('/v1/graphql', body, { ...ADMIN, ...headers });
  let seen: string | undefined;
  for (let i = 0; i < 40 && seen === undefined; i++) {
    const r = await fx.db.sql(`SELECT query FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE '%"slow_note"%' AND state = 'active'`);
    seen = r.rows[0]?.query as string | undefined;
    if (seen === undefined) await sleep(25);
  }
  expect((await running).body).toEqual({ data: { [field]: [{ id: 1 }] } });
  expect(seen).toBeDefined();
  return seen!;
}

const setTags = (args: Record<string, unknown>) => fx.engine.metadata({ type: 'set_query_tags', args: { source_name: 'default', ...args } }, ADMIN);

describe('query tags', () => {
  it('are off until set_query_tags turns them on: then the standard format, without the request id', async () => {
    expect(await activityOf(SLOW)).not.toContain('/*');
    expect((await setTags({})).status).toBe(200);
    const text = await activityOf(SLOW, { 'x-request-id': 'tags-default' });
    expect(text).toMatch(/\n\/\* field_name=slow_note, parameterized_query_hash=[0-9a-f]{40}, operation_name=Slow \*\/$/);
    expect(text).not.toContain('tags-default');
  });

  it('with omit_request_id false: the request id first; an alias is the field name', async () => {
    expect((await setTags({ omit_request_id: false })).body).toEqual({ message: 'success' });
    const text = await activityOf({ query: 'query Slow { mine: slow_note { id } }', operationName: 'Slow' }, { 'x-request-id': 'tags-std-1' }, 'mine');
    expect(text).toMatch(/\/\* request_id=tags-std-1, field_name=mine, parameterized_query_hash=[0-9a-f]{40}, operation_name=Slow \*\/$/);
  });

  it('in the sqlcommenter format: keys sorted, values quoted and URL-encoded (a request id cannot close the comment)', async () => {
    expect((await setTags({ format: 'sqlcommenter', omit_request_id: false })).status).toBe(200);
    const text = await activityOf(SLOW, { 'x-request-id': "id */ OR '1'" });
    expect(text).toMatch(/\/\* field_name='slow_note',operation_name='Slow',parameterized_query_hash='[0-9a-f]{40}',request_id='id%20\*%2F%20OR%20%271%27' \*\/$/);
  });

  it('disabled: no comment', async () => {
    expect((await setTags({ disabled: true })).status).toBe(200);
    expect(await activityOf(SLOW)).not.toContain('/*');
  });

  it("stores the settings whole in the source's query_tags, exported; refuses a bad format or an unknown source", async () => {
    expect((await setTags({ format: 'SQLCommenter' })).status).toBe(200);
    const exported = (await fx.engine.metadata({ type: 'export_metadata', args: {} }, ADMIN)).body;
    expect(exported.sources[0].query_tags).toEqual({ disabled: false, format: 'sqlcommenter', omit_request_id: true });
    const bad = await setTags({ format: 'loud' });
    expect([bad.status, bad.body.code, bad.body.path]).toEqual([400, 'parse-failed', '$.args.format']);
    const unknown = await fx.engine.metadata({ type: 'set_query_tags', args: { source_name: 'nowhere' } }, ADMIN);
    expect([unknown.status, unknown.body.code]).toEqual([400, 'not-exists']);
    expect((await fx.engine.metadata({ type: 'export_metadata', args: {} }, ADMIN)).body).toEqual(exported);
    // A document carrying query_tags is read back as it was.
    expect((await fx.engine.metadata({ type: 'replace_metadata', args: exported }, ADMIN)).status).toBe(200);
    expect((await fx.engine.metadata({ type: 'export_metadata', args: {} }, ADMIN)).body.sources[0].query_tags).toEqual(exported.sources[0].query_tags);
  });
});
