/**
 * Golden cases: every folder beside this file (but `fixture`, `mssql` and `bigquery`: their backends' own, no engine) is one GraphQL request run against
 * one engine over the fixture. A query's SQL (as `/v1/graphql/explain` reports it) and its answer
 * must equal `expected.sql` and `expected.json`; a mutation's answer must equal `expected.json`
 * and the rows `check.sql` reads afterwards `expected-rows.json` (mutations cannot be explained);
 * a subscription's multiplexed SQL and its first result over WebSocket.
 * `SERVICE_GOLDEN_UPDATE=1` rewrites the expected files instead (see README.md).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kind, parse, type OperationDefinitionNode } from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import { startEngine, type Engine } from '../support/engine.js';

const ROOT = fileURLToPath(new URL('.', import.meta.url));
const UPDATE = process.env.SERVICE_GOLDEN_UPDATE === '1';

interface GoldenCase {
  name: string;
  dir: string;
  query: string;
  variables: Record<string, unknown> | undefined;
  session: Record<string, string>;
  operation: 'query' | 'mutation' | 'subscription';
}

const readJson = (path: string): any => JSON.parse(readFileSync(path, 'utf8'));
const optionalJson = (path: string): any => (existsSync(path) ? readJson(path) : undefined);

function loadCase(name: string): GoldenCase {
  const dir = join(ROOT, name);
  const query = readFileSync(join(dir, 'request.graphql'), 'utf8');
  return { name, dir, query, variables: optionalJson(join(dir, 'variables.json')), session: optionalJson(join(dir, 'session.json')) ?? {}, operation: operationOf(query) };
}

/** A request that does not parse is a query case (its expected answer is the engine's syntax error). */
function operationOf(query: string): GoldenCase['operation'] {
  try {
    const op = parse(query).definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION) as OperationDefinitionNode | undefined;
    return op?.operation ?? 'query';
  } catch {
    return 'query';
  }
}

const cases = readdirSync(ROOT, { withFileTypes: true })
  .filter((d) => d.isDirectory() && d.name !== 'fixture' && d.name !== 'mssql' && d.name !== 'bigquery')
  .map((d) => loadCase(d.name))
  .sort((a, b) => a.name.localeCompare(b.name));

/** Arrays sorted by their JSON text: for requests without `order_by`, whose row order is unspecified. */
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, canonical(x)]));
  return v;
}
const ordered = (c: GoldenCase) => /\border_?by\b/i.test(c.query);

/** Compares with (or, when updating, writes) an expected file. */
function golden(c: GoldenCase, file: string, actual: unknown): void {
  const path = join(c.dir, file);
  const text = typeof actual === 'string' ? actual : `${JSON.stringify(actual, null, 2)}\n`;
  if (UPDATE) return writeFileSync(path, text);
  expect(existsSync(path), `${c.name}/${file} is missing (run with SERVICE_GOLDEN_UPDATE=1)`).toBe(true);
  if (typeof actual === 'string') expect(actual).toBe(readFileSync(path, 'utf8'));
  else if (ordered(c)) expect(actual).toEqual(readJson(path));
  else expect(canonical(actual)).toEqual(canonical(readJson(path)));
}

let db: TestDatabase;
let engine: Engine;

beforeAll(async () => {
  db = await freshDatabase();
  // Timestamps come back in the session time zone: fix it before the engine connects.
  await db.sql(`ALTER DATABASE "${db.name}" SET timezone TO 'UTC'`);
  await db.sql(readFileSync(join(ROOT, 'fixture/setup.sql'), 'utf8'));
  engine = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: db.url });
  const metadata = readJson(join(ROOT, 'fixture/metadata.json'));
  const r = await engine.metadata({ type: 'replace_metadata', version: 2, args: { metadata } });
  if (r.status !== 200 || r.body.is_consistent === false) throw new Error(`fixture metadata refused: ${JSON.stringify(r.body)}`);
});

afterAll(async () => {
  await engine?.stop();
  await db?.drop();
});

/**
 * Explain's SQL per root field, or its error (an invalid request is not explainable). A
 * subscription's: its multiplexed statement, after the cohort values it is explained with.
 */
async function explained(c: GoldenCase): Promise<string> {
  const r = await engine.post('/v1/graphql/explain', { query: { query: c.query, variables: c.variables }, user: c.session });
  if (r.status !== 200) return `-- explain refused (${r.status}): ${JSON.stringify(r.body)}\n`;
  if (c.operation === 'subscription') return `-- variables: ${JSON.stringify(r.body.variables)}\n${r.body.sql};\n`;
  return (r.body as { field: string; sql: string }[]).map((f) => `-- ${f.field}\n${f.sql};\n`).join('\n');
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

  for (const c of cases) {
    it(c.name, async () => {
      if (c.operation !== 'mutation') golden(c, 'expected.sql', await explained(c));
      if (c.operation === 'subscription') return golden(c, 'expected.json', await firstResult(c));
      const r = await engine.post('/v1/graphql', { query: c.query, variables: c.variables }, c.session);
      expect(r.status).toBe(200);
      golden(c, 'expected.json', r.body);
      if (c.operation !== 'mutation') return;
      try {
        golden(c, 'expected-rows.json', JSON.parse(JSON.stringify((await db.sql(readFileSync(join(c.dir, 'check.sql'), 'utf8'))).rows)));
      } finally {
        await db.sql('SELECT golden.reset_data()');
      }
    });
  }
});
