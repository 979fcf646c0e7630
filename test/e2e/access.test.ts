import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import { startEngine, type Engine } from '../support/engine.js';

// The metadata lives in its own database here, so the store can be taken away under /healthz.
let db: TestDatabase;
let metadataDb: TestDatabase;
let engine: Engine;

beforeAll(async () => {
  db = await freshDatabase();
  metadataDb = await freshDatabase();
  engine = await startEngine({
    SERVICE_GRAPHQL_DATABASE_URL: db.url,
    SERVICE_GRAPHQL_METADATA_DATABASE_URL: metadataDb.url,
    SERVICE_GRAPHQL_ADMIN_SECRET: 's3cret',
    SERVICE_GRAPHQL_MAX_BODY_SIZE: '4096',
    SERVICE_GRAPHQL_ADMIN_MAX_BODY_SIZE: '2048',
  });
});

afterAll(async () => {
  await engine?.stop();
  await db?.drop();
  await metadataDb?.drop();
});

const admin = { 'x-service-admin-secret': 's3cret' };
const exportBody = { type: 'export_metadata', args: {} };

describe('admin secret', () => {
  it('is required: a missing or wrong secret is 401 access-denied', async () => {
    const variants: Record<string, string>[] = [{}, { 'x-service-admin-secret': 'wrong' }, { 'x-service-admin-secret': '' }];
    for (const headers of variants) {
      for (const path of ['/v1/metadata', '/v1/query', '/v2/query']) {
        const r = await engine.post(path, exportBody, headers);
        expect(r).toEqual({ status: 401, body: { path: '$', error: 'invalid x-service-admin-secret/x-service-access-key', code: 'access-denied' } });
      }
    }
  });

  it('grants admin access', async () => {
    expect((await engine.metadata(exportBody, admin)).status).toBe(200);
    expect((await engine.metadata(exportBody, { ...admin, 'x-service-role': 'admin' })).status).toBe(200);
  });

  it('does not let another role use the admin API: 400 access-denied', async () => {
    const r = await engine.metadata({ type: 'clear_metadata', args: {} }, { ...admin, 'x-service-role': 'user' });
    expect(r).toEqual({ status: 400, body: { path: '$.args', error: 'restricted access : admin only', code: 'access-denied' } });
    const q = await engine.query({ type: 'run_sql', args: { sql: 'SELECT 1' } }, { ...admin, 'x-service-role': 'user' });
    expect(q.status).toBe(400);
    expect(q.body.code).toBe('access-denied');
  });
});

describe('requests the engine cannot use', () => {
  it('malformed JSON is 400 parse-failed', async () => {
    const r = await engine.post('/v1/metadata', '{"type": "export_metadata", ', admin);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ path: '$', code: 'parse-failed' });
    expect(r.body.error).toMatch(/^invalid JSON in request body/);
  });

  it('a body that is not an envelope is 400 with the path', async () => {
    expect((await engine.post('/v1/metadata', '"type: count"', admin)).body).toEqual({
      path: '$',
      error: 'parsing Object failed, expected Object, but encountered String',
      code: 'parse-failed',
    });
    expect((await engine.metadata({ type: 7, args: {} }, admin)).body).toMatchObject({ path: '$.type', code: 'parse-failed' });
  });

  it("an unknown operation is a parse failure of the envelope, in the well-known engine's words", async () => {
    const r = await engine.metadata({ type: 'make_coffee', args: {} }, admin);
    expect(r).toEqual({ status: 400, body: { path: '$', error: 'unknown metadata command "make_coffee"; "make" was not recognized as a valid backend name', code: 'parse-failed' } });
    const known = await engine.metadata({ type: 'bulk', args: [{ type: 'export_metadata', args: {} }, { type: 'pg_track_tables', args: {} }] }, admin);
    expect(known).toEqual({ status: 400, body: { path: '$.args[1]', error: 'unknown metadata command "track_tables" for backend "pg"', code: 'parse-failed' } });
  });

  it('a body over the configured limit is refused with 413', async () => {
    const r = await engine.runSql(`SELECT '${'x'.repeat(4096)}'`);
    expect(r.status).toBe(401); // no secret: refused before the body is read
    const big = await engine.post('/v2/query', { type: 'run_sql', args: { sql: `SELECT '${'x'.repeat(4096)}'` } }, admin);
    expect(big).toEqual({ status: 413, body: { path: '$', error: 'request body is larger than the limit of 2048 bytes', code: 'bad-request' } });
    expect((await engine.post('/v2/query', { type: 'run_sql', args: { sql: 'SELECT 1' } }, admin)).status).toBe(200);
  });

  it('an unknown path is 404', async () => {
    const r = await engine.post('/v1/nothing', exportBody, admin);
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('not-found');
  });
});

describe('/v1/version and /healthz', () => {
  it('answers the version without credentials', async () => {
    const r = await fetch(`${engine.url}/v1/version`);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
  });

  it('answers OK while the metadata store is reachable, 500 when it is not', async () => {
    const ok = await fetch(`${engine.url}/healthz`);
    expect([ok.status, await ok.text()]).toEqual([200, 'OK']);
    await metadataDb.drop();
    const down = await fetch(`${engine.url}/healthz`);
    expect(down.status).toBe(500);
  });
});
