/**
 * Asynchronous actions (spec "Action", `kind: asynchronous`): the mutation
 * answers an id at once, the call is stored in the metadata database and made in the background
 * by the trigger-delivery actor, its result read by a query and a subscription on that id, by
 * the session that made it only. A call survives an engine restart (the engine stopped while the
 * handler was answering); calls run concurrently beyond 10; drop_action's clear_data removes them.
 */
import type { Client } from 'graphql-ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import { startEngine, type Engine } from '../support/engine.js';
import { ActionHandler } from '../support/action-handler.js';
import { until } from '../support/events.js';
import { connect, subscribe } from '../support/graphql-ws.js';

const ADMIN = { 'X-Service-Admin-Secret': 'adm' };
let db: TestDatabase;
let engine: Engine;
let slow = 0;
let running = 0;
let maxRunning = 0;

const handler = new ActionHandler({
  '/work': async (b) => {
    running += 1;
    maxRunning = Math.max(maxRunning, running);
    const delayMs = b.input.name === 'slow' ? slow : b.input.name === 'busy' ? 400 : 0;
    await new Promise((r) => setTimeout(r, delayMs));
    running -= 1;
    return { body: { greeting: `done ${b.input.name}`, author_id: 1 } };
  },
  '/fail': () => ({ status: 422, body: { message: 'cannot do it', extensions: { code: 'refused' } } }),
});

const env = (extra: Record<string, string> = {}) => ({ SERVICE_GRAPHQL_DATABASE_URL: db.url, SERVICE_GRAPHQL_ADMIN_SECRET: 'adm', SERVICE_GRAPHQL_ASYNC_ACTIONS_FETCH_INTERVAL: '200', ...extra });
const admin = (type: string, args: unknown) => engine.metadata({ type, args }, ADMIN);
const as = (user: string, query: string, variables?: unknown) => engine.post('/v1/graphql', { query, variables }, { ...ADMIN, 'X-Service-Role': 'user', 'X-Service-User-Id': user });
const ok = async (type: string, args: unknown) => expect((await admin(type, args)).body).toEqual({ message: 'success' });
const call = async (name: string, user = '1', action = 'work') => {
  const r = await as(user, `mutation { ${action}(name: "${name}") }`);
  expect(r.body.data?.[action], JSON.stringify(r.body)).toMatch(/^[0-9a-f-]{36}$/);
  return r.body.data[action] as string;
};
const RESULT = 'query ($id: uuid!) { work(id: $id) { id created_at errors output { greeting author { name } } } }';
const result = async (id: string, user = '1') => (await as(user, RESULT, { id })).body.data.work;
const done = (id: string, user = '1') => until(`call ${id}`, async () => ((await result(id, user))?.output ? result(id, user) : undefined), 15_000);

beforeAll(async () => {
  await handler.start();
  db = await freshDatabase();
  await db.sql(`CREATE TABLE author (id int PRIMARY KEY, name text NOT NULL); INSERT INTO author VALUES (1, 'ann');`);
  engine = await startEngine(env());
  await ok('pg_track_table', { table: 'author' });
  await ok('pg_create_select_permission', { table: 'author', role: 'user', permission: { columns: ['name'], filter: {} } });
  await ok('set_custom_types', {
    objects: [{ name: 'Done', fields: [{ name: 'greeting', type: 'String!' }, { name: 'author_id', type: 'Int!' }], relationships: [{ name: 'author', type: 'object', remote_table: 'author', field_mapping: { author_id: 'id' } }] }],
  });
  for (const [name, path] of [['work', '/work'], ['fail', '/fail']]) {
    await ok('create_action', { name, definition: { kind: 'asynchronous', handler: handler.url(path!), output_type: 'Done!', arguments: [{ name: 'name', type: 'String!' }] } });
    await ok('create_action_permission', { action: name, role: 'user' });
  }
});

const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.dispose();
});

afterAll(async () => {
  await engine?.stop();
  await db?.drop();
  await handler.stop();
});

describe('asynchronous actions', () => {
  it('answer an id at once; the result (with a relationship) is for the session that made the call', async () => {
    const id = await call('a');
    const r = await done(id);
    expect(r).toMatchObject({ id, errors: null, output: { greeting: 'done a', author: { name: 'ann' } } });
    expect(Date.parse(r.created_at)).not.toBeNaN();
    // Another session: as if there were no such call.
    expect(await result(id, '2')).toBeNull();
    // The handler got the action, input and the session.
    expect(handler.callsTo('/work').at(-1)!.body).toMatchObject({ action: { name: 'work' }, input: { name: 'a' }, session_variables: { 'x-service-role': 'user', 'x-service-user-id': '1' } });
  });

  it("a handler error is the result's errors", async () => {
    const id = await call('x', '1', 'fail');
    const r = await until('errors', async () => (await as('1', 'query ($id: uuid!) { fail(id: $id) { errors output { greeting } } }', { id })).body.data.fail?.errors ?? undefined, 15_000);
    expect(r).toEqual({ message: 'cannot do it', extensions: { code: 'refused' } });
  });

  it('a subscription on the id gives the result when it is there', async () => {
    slow = 1000;
    const id = await call('slow');
    const results = subscribe(connect(engine, clients, { 'X-Service-Admin-Secret': 'adm', 'X-Service-Role': 'user', 'X-Service-User-Id': '1' }), 'subscription ($id: uuid!) { work(id: $id) { id output { greeting } } }', { id });
    expect(await results.next()).toEqual({ data: { work: { id, output: null } } });
    expect(await results.next(10_000)).toEqual({ data: { work: { id, output: { greeting: 'done slow' } } } });
    results.stop();
  });

  it('runs more than 10 calls at once', async () => {
    maxRunning = 0;
    const ids = await Promise.all(Array.from({ length: 25 }, () => call('busy')));
    for (const id of ids) await done(id);
    expect(maxRunning).toBeGreaterThan(10);
  });

  it('a call survives an engine restart', async () => {
    slow = 60_000;
    const before = handler.callsTo('/work').length;
    const id = await call('slow');
    // The handler has it; the engine stops before it answers.
    await until('the call made', () => handler.callsTo('/work').length > before);
    await engine.stop();
    slow = 0;
    engine = await startEngine(env());
    expect(await done(id)).toMatchObject({ id, output: { greeting: 'done slow' } });
  }, 90_000);

  it('a call stored while no instance makes calls is made by the next one', async () => {
    await engine.stop();
    engine = await startEngine(env({ SERVICE_GRAPHQL_ASYNC_ACTIONS_FETCH_INTERVAL: '0' }));
    const later = await call('later');
    await new Promise((r) => setTimeout(r, 500));
    expect((await result(later)).output).toBeNull();
    await engine.stop();
    engine = await startEngine(env());
    expect(await done(later)).toMatchObject({ output: { greeting: 'done later' } });
  }, 90_000);

  it('drop_action clears its stored calls (clear_data, default true)', async () => {
    const count = async () => Number((await db.sql(`SELECT count(*) AS n FROM service_catalog.action_log WHERE action_name = 'fail'`)).rows[0].n);
    expect(await count()).toBeGreaterThan(0);
    await ok('drop_action', { name: 'fail', clear_data: false });
    expect(await count()).toBeGreaterThan(0);
    await ok('create_action', { name: 'fail', definition: { kind: 'asynchronous', handler: handler.url('/fail'), output_type: 'Done!', arguments: [{ name: 'name', type: 'String!' }] } });
    await ok('drop_action', { name: 'fail' });
    expect(await count()).toBe(0);
  });
});
