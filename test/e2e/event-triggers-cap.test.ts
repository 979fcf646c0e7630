/**
 * The cluster-wide cap on one event trigger's deliveries at once
 * (`SERVICE_GRAPHQL_EVENTS_MAX_CONCURRENT_PER_TRIGGER`, beyond the spec): two engines
 * sharing a source, each with room for 100 calls, never have more than the cap of one trigger's
 * calls open at a slow webhook together; each trigger has a cap of its own. (A cap kept by each
 * instance alone would let the second, polling every 100 ms, open 3 more while the first's calls
 * hang.)
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import { startEngine, type Engine } from '../support/engine.js';
import { eventRows, until } from '../support/events.js';

const CAP = 3;
const EVENTS = 24;

let db: TestDatabase;
const engines: Engine[] = [];
let hook: Server;
let hookBase = '';
/** Per path: calls open now, the most ever open at once, and the ids received. */
const seen = new Map<string, { open: number; most: number; ids: string[] }>();

beforeAll(async () => {
  db = await freshDatabase();
  await db.sql('CREATE TABLE task (id int PRIMARY KEY)');
  hook = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const s = seen.get(req.url!) ?? { open: 0, most: 0, ids: [] };
      seen.set(req.url!, s);
      s.open++;
      s.most = Math.max(s.most, s.open);
      s.ids.push(JSON.parse(Buffer.concat(chunks).toString()).id);
      // A slow webhook: calls pile up unless something holds them back.
      setTimeout(() => {
        s.open--;
        res.writeHead(200).end('{}');
      }, 300);
    });
  });
  await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
  hookBase = `http://127.0.0.1:${(hook.address() as AddressInfo).port}`;
  for (let i = 0; i < 2; i++) {
    engines.push(
      await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: db.url, SERVICE_GRAPHQL_EVENTS_FETCH_INTERVAL: '100', SERVICE_GRAPHQL_EVENTS_MAX_CONCURRENT_PER_TRIGGER: String(CAP) }),
    );
  }
});

afterAll(async () => {
  await Promise.all(engines.map((e) => e.stop()));
  hook?.closeAllConnections();
  await new Promise((r) => hook?.close(r));
  await db?.drop();
});

describe('a cap on concurrent deliveries per trigger', () => {
  it('two engines never have more than the cap of one trigger in flight together, and deliver every event once', { timeout: 90_000 }, async () => {
    const [one, two] = engines as [Engine, Engine];
    expect((await one.metadata({ type: 'pg_track_table', args: { table: 'task' } })).status).toBe(200);
    for (const name of ['first', 'second']) {
      const r = await one.metadata({ type: 'pg_create_event_trigger', args: { name, table: 'task', webhook: `${hookBase}/${name}`, insert: { columns: '*' } } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    await until('the second engine sees both triggers', async () => (await two.metadata({ type: 'export_metadata', args: {} })).body.sources[0].tables[0].event_triggers?.length === 2 || undefined);
    await db.sql(`INSERT INTO task SELECT g FROM generate_series(1, ${EVENTS}) g`);
    for (const name of ['first', 'second']) {
      await until(`${name}: every event delivered`, async () => (await eventRows(db, name)).every((e) => e.delivered) || undefined, 60_000);
    }
    for (const path of ['/first', '/second']) {
      const s = seen.get(path)!;
      expect(new Set(s.ids).size).toBe(EVENTS);
      expect(s.ids).toHaveLength(EVENTS);
      // The cap is the limit, not a trickle of one at a time.
      expect(s.most).toBe(CAP);
    }
  });
});
