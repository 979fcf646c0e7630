/**
 * Golden cases: every folder beside this file (but `fixture`, `mssql` and `bigquery`: their
 * backends' own, no engine) is one GraphQL request run against one engine over the fixture. A
 * query's answer must equal `expected.json`; a mutation's answer must equal `expected.json` and
 * the rows `check.sql` reads afterwards `expected-rows.json` (mutations cannot be explained); a
 * subscription's first result over WebSocket its `expected.json`. The SQL of queries and
 * subscriptions (`expected.sql`) is `golden-sql.test.ts`'s, without an engine: here, the
 * engine's `/v1/graphql/explain` must report what that test explains in its process, and the
 * catalog it reads (`fixture/introspection.json`, `fixture/enum-values.json`) must be the fixture
 * database's. `SERVICE_GOLDEN_UPDATE=1` rewrites the expected files and captures that catalog
 * instead (see README.md).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClient } from 'graphql-ws';
import pg from 'pg';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import { startEngine, type Engine } from '../support/engine.js';
import { readJson, UPDATE } from './dialect-golden.js';
import { captureCatalog, cases, comparable, engineFreeExplain, explainBody, explainedText, ROOT, storedCatalog, type ExplainAnswer, type GoldenCase } from './pg-golden.js';

/** Arrays sorted by their JSON text: for requests without `order_by`, whose row order is unspecified. */
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, canonical(x)]));
  return v;
}
const ordered = (c: GoldenCase) => /\border_?by\b/i.test(c.query);

/** Compares with (or, when updating, writes) an expected JSON file. */
function golden(c: GoldenCase, file: string, actual: unknown): void {
  const path = join(c.dir, file);
  if (UPDATE) return writeFileSync(path, `${JSON.stringify(actual, null, 2)}\n`);
  expect(existsSync(path), `${c.name}/${file} is missing (run with SERVICE_GOLDEN_UPDATE=1)`).toBe(true);
  if (ordered(c)) expect(actual).toEqual(readJson(path));
  else expect(canonical(actual)).toEqual(canonical(readJson(path)));
}

let db: TestDatabase;
let engine: Engine;
/** The fixture database's catalog as read now, and as stored (what golden-sql.test.ts explains with). */
let live: unknown;
let stored: unknown;
let engineFree: (c: GoldenCase) => Promise<ExplainAnswer>;

beforeAll(async () => {
  db = await freshDatabase();
  // Timestamps come back in the session time zone: fix it before the engine connects.
  await db.sql(`ALTER DATABASE "${db.name}" SET timezone TO 'UTC'`);
  await db.sql(readFileSync(join(ROOT, 'fixture/setup.sql'), 'utf8'));
  engine = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: db.url });
  const metadata = readJson(join(ROOT, 'fixture/metadata.json'));
  const r = await engine.metadata({ type: 'replace_metadata', version: 2, args: { metadata } });
  if (r.status !== 200 || r.body.is_consistent === false) throw new Error(`fixture metadata refused: ${JSON.stringify(r.body)}`);
  const pool = new pg.Pool({ connectionString: db.url, max: 1 });
  try {
    const captured = await captureCatalog(pool, metadata);
    live = comparable(captured);
    // Written only when it changed: object ids differ in every fresh database.
    if (UPDATE && !sameJson(live, existsSync(join(ROOT, 'fixture/introspection.json')) ? comparable(storedCatalog()) : null)) {
      writeFileSync(join(ROOT, 'fixture/introspection.json'), `${JSON.stringify(captured.introspection, null, 2)}\n`);
      writeFileSync(join(ROOT, 'fixture/enum-values.json'), `${JSON.stringify(captured.enumValues, null, 2)}\n`);
    }
  } finally {
    await pool.end();
  }
  stored = comparable(storedCatalog());
  engineFree = engineFreeExplain(storedCatalog());
});

afterAll(async () => {
  await engine?.stop();
  await db?.drop();
});

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * Explain's report (the engine's) must be golden-sql.test.ts's (explained in its process), but
 * where the database refused the statement explain sent: then that refusal, which the query's
 * answer must carry too.
 */
async function explainedAsWithoutEngine(c: GoldenCase): Promise<{ path: string; error: string; code: string } | null> {
  const r = await engine.post('/v1/graphql/explain', explainBody(c));
  const expected = await engineFree(c);
  if (c.operation === 'query' && r.status !== 200 && expected.status === 200) return r.body;
  expect(explainedText(r), 'the engine explains as golden-sql.test.ts').toBe(explainedText(expected));
  return null;
}

/** A subscription's first result over graphql-transport-ws (the multiplexed statement's answer). */
async function firstResult(c: GoldenCase): Promise<unknown> {
  const client = createClient({ url: engine.url.replace('http', 'ws') + '/v1/graphql', webSocketImpl: WebSocket, connectionParams: { headers: c.session }, retryAttempts: 0 });
  try {
    return await new Promise((resolve, reject) => {
      const stop = client.subscribe({ query: c.query, variables: c.variables }, { next: (v) => (stop(), resolve(v)), error: reject, complete: () => {} });
    });
  } finally {
    await client.dispose();
  }
}

describe('golden cases', () => {
  it('has cases', () => expect(cases.length).toBeGreaterThan(0));

  it('reads the fixture database as fixture/introspection.json and fixture/enum-values.json say (SERVICE_GOLDEN_UPDATE=1 captures them)', () => {
    expect(stored).toEqual(live);
  });

  for (const c of cases) {
    it(c.name, async () => {
      const refused = c.operation === 'mutation' ? null : await explainedAsWithoutEngine(c);
      if (c.operation === 'subscription') return golden(c, 'expected.json', await firstResult(c));
      const r = await engine.post('/v1/graphql', { query: c.query, variables: c.variables }, c.session);
      expect(r.status).toBe(200);
      golden(c, 'expected.json', r.body);
      if (refused) expect(r.body.errors?.[0], 'the database refused the statement explain sent').toEqual({ message: refused.error, extensions: { path: refused.path, code: refused.code } });
      if (c.operation !== 'mutation') return;
      try {
        golden(c, 'expected-rows.json', JSON.parse(JSON.stringify((await db.sql(readFileSync(join(c.dir, 'check.sql'), 'utf8'))).rows)));
      } finally {
        await db.sql('SELECT golden.reset_data()');
      }
    });
  }
});
