/**
 * Automatic persisted queries (Apollo's `extensions.persistedQuery`): through the real Apollo
 * Client link (POST, and GET for hashed queries), raw HTTP, WebSocket, and the allow-list.
 * Choices: docs/behaviour.md "Automatic persisted queries".
 */
import { createHash } from 'node:crypto';
import { ApolloClient, gql, HttpLink, InMemoryCache } from '@apollo/client/core';
import { createPersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { useEngine } from '../support/fixture.js';

const fx = useEngine({ SERVICE_GRAPHQL_ADMIN_SECRET: 'adm', SERVICE_GRAPHQL_ENABLE_ALLOWLIST: 'true', SERVICE_GRAPHQL_PERSISTED_QUERIES_CACHE_SIZE: '3' });
const admin = { 'x-service-admin-secret': 'adm' };
const user = { ...admin, 'x-service-role': 'user' };
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const pq = (query: string) => ({ persistedQuery: { version: 1, sha256Hash: sha256(query) } });
const notFound = {
  errors: [{ message: 'PersistedQueryNotFound', extensions: { path: '$.extensions.persistedQuery.sha256Hash', code: 'PERSISTED_QUERY_NOT_FOUND' } }],
};
const post = async (body: unknown, headers = admin) => (await fx.engine.post('/v1/graphql', body, headers)).body;

const ALLOWED = 'query authors { author(order_by: {id: asc}, limit: 1) { id name } }';
const rows = { data: { author: [{ id: 1, name: 'ann' }] } };

beforeAll(async () => {
  await fx.db.sql(`CREATE TABLE author (id serial PRIMARY KEY, name text); INSERT INTO author (name) VALUES ('ann'), ('bob')`);
  const meta = async (type: string, args: unknown) => expect((await fx.engine.metadata({ type, args }, admin)).status).toBe(200);
  await meta('pg_track_table', { table: 'author' });
  await meta('pg_create_select_permission', { table: 'author', role: 'user', permission: { columns: ['id', 'name'], filter: {} } });
  await meta('create_query_collection', { name: 'public', definition: { queries: [{ name: 'authors', query: ALLOWED }] } });
  await meta('add_collection_to_allowlist', { collection: 'public' });
});

/** An Apollo client whose link sends hashes first, recording what went over the wire. */
function apollo(useGETForHashedQueries: boolean) {
  const sent: { method: string; url: string; body: any }[] = [];
  const recording: typeof fetch = (input, init) => {
    sent.push({ method: init?.method ?? 'GET', url: String(input), body: typeof init?.body === 'string' ? JSON.parse(init.body) : null });
    return fetch(input, init);
  };
  const http = new HttpLink({ uri: `${fx.engine.url}/v1/graphql`, fetch: recording, headers: admin });
  const link = createPersistedQueryLink({ sha256, useGETForHashedQueries }).concat(http);
  return { client: new ApolloClient({ link, cache: new InMemoryCache(), defaultOptions: { query: { fetchPolicy: 'no-cache' } } }), sent };
}

describe('with the Apollo Client persisted-queries link', () => {
  it('sends the hash, the document after PersistedQueryNotFound, then the hash alone', async () => {
    const doc = 'query authorNames($n: Int!) { author(order_by: {id: asc}, limit: $n) { name } }';
    const first = apollo(false);
    const a = await first.client.query({ query: gql(doc), variables: { n: 2 } });
    // The link's cache adds __typename to the document (and so to the hash).
    expect(a.data).toEqual({ author: [{ __typename: 'author', name: 'ann' }, { __typename: 'author', name: 'bob' }] });
    // A miss, then the document with its hash.
    expect(first.sent.map((s) => [s.method, 'query' in s.body])).toEqual([
      ['POST', false],
      ['POST', true],
    ]);
    // Another client: the hash alone suffices now.
    const second = apollo(false);
    const b = await second.client.query({ query: gql(doc), variables: { n: 1 } });
    expect(b.data).toEqual({ author: [{ __typename: 'author', name: 'ann' }] });
    expect(second.sent).toHaveLength(1);
    expect(second.sent[0]!.body.query).toBeUndefined();
    expect(second.sent[0]!.body.extensions.persistedQuery.sha256Hash).toBe(sha256(first.sent[1]!.body.query as string));
  });

  it('sends hashed queries as GET when asked to', async () => {
    const doc = 'query firstAuthor { author(order_by: {id: asc}, limit: 1) { id } }';
    const c = apollo(true);
    const row = { author: [{ __typename: 'author', id: 1 }] };
    expect((await c.client.query({ query: gql(doc) })).data).toEqual(row);
    expect((await c.client.query({ query: gql(doc) })).data).toEqual(row);
    // GET miss, POST with the document, GET hit.
    expect(c.sent.map((s) => s.method)).toEqual(['GET', 'POST', 'GET']);
    expect(c.sent[2]!.url).toContain('extensions=');
    expect(c.sent[2]!.url).not.toContain('query=');
  });
});

describe('over raw HTTP', () => {
  it('answers a miss, stores a document sent with its hash, and runs the hash alone by POST and GET', async () => {
    const doc = '{ author(order_by: {id: desc}, limit: 1) { name } }';
    expect(await post({ extensions: pq(doc) })).toEqual(notFound);
    expect(await post({ query: doc, extensions: pq(doc) })).toEqual({ data: { author: [{ name: 'bob' }] } });
    expect(await post({ extensions: pq(doc) })).toEqual({ data: { author: [{ name: 'bob' }] } });
    const get = await fetch(`${fx.engine.url}/v1/graphql?extensions=${encodeURIComponent(JSON.stringify(pq(doc)))}`, { headers: admin });
    expect(await get.json()).toEqual({ data: { author: [{ name: 'bob' }] } });
    // A batch: each request on its own.
    expect(await post([{ extensions: pq(doc) }, { extensions: pq('{ nope }') }])).toEqual([{ data: { author: [{ name: 'bob' }] } }, notFound]);
  });

  it('refuses a hash that does not match the document, and malformed extensions', async () => {
    const doc = '{ author { id } }';
    expect(await post({ query: doc, extensions: pq('{ other }') })).toEqual({
      errors: [{ message: 'provided sha does not match query', extensions: { path: '$.extensions.persistedQuery.sha256Hash', code: 'bad-request' } }],
    });
    // Not stored: the hash alone is still unknown.
    expect(await post({ extensions: pq('{ other }') })).toEqual(notFound);
    expect((await post({ extensions: { persistedQuery: { version: 2, sha256Hash: sha256(doc) } } })).errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_SUPPORTED');
    expect(await post({ extensions: { persistedQuery: { version: 1, sha256Hash: 'abc' } } })).toEqual({
      errors: [{ message: '"sha256Hash" must be a SHA-256 hash in hexadecimal', extensions: { path: '$.extensions.persistedQuery.sha256Hash', code: 'parse-failed' } }],
    });
    expect((await post({ extensions: {} })).errors[0]).toEqual({ message: 'the key "query" was not present', extensions: { path: '$.query', code: 'parse-failed' } });
  });

  it('keeps a bounded number of documents, the least recently used going first', async () => {
    const docs = [1, 2, 3, 4].map((n) => `query q${n} { author(limit: ${n}) { id } }`);
    for (const d of docs.slice(0, 3)) expect((await post({ query: d, extensions: pq(d) })).data).toBeDefined();
    // q1 used again: q2 is now the least recently used, and goes when q4 comes (size 3).
    expect((await post({ extensions: pq(docs[0]!) })).data).toBeDefined();
    expect((await post({ query: docs[3], extensions: pq(docs[3]!) })).data).toBeDefined();
    expect(await post({ extensions: pq(docs[1]!) })).toEqual(notFound);
    for (const d of [docs[0]!, docs[2]!, docs[3]!]) expect((await post({ extensions: pq(d) })).data).toBeDefined();
  });
});

describe('with the allow-list', () => {
  it('accepts a hash only for a document the role may run, and keeps only allowed documents', async () => {
    expect(await post({ extensions: pq(ALLOWED) }, user)).toEqual(notFound);
    expect(await post({ query: ALLOWED, extensions: pq(ALLOWED) }, user)).toEqual(rows);
    expect(await post({ extensions: pq(ALLOWED) }, user)).toEqual(rows);
    const other = 'query others { author { name } }';
    const refused = { errors: [{ message: 'query is not allowed', extensions: { path: '$', code: 'validation-failed' } }] };
    expect(await post({ query: other, extensions: pq(other) }, user)).toEqual(refused);
    // The refused document was not kept.
    expect(await post({ extensions: pq(other) }, admin)).toEqual(notFound);
    // Kept for the admin (who may run anything), its hash is still refused for the role.
    expect((await post({ query: other, extensions: pq(other) }, admin)).data).toBeDefined();
    expect(await post({ extensions: pq(other) }, user)).toEqual(refused);
  });
});

describe('over WebSocket', () => {
  /** One operation over graphql-transport-ws, by hand: the graphql-ws client insists on a query string. */
  async function operation(payload: unknown): Promise<any[]> {
    const ws = new WebSocket(fx.engine.url.replace('http', 'ws') + '/v1/graphql', 'graphql-transport-ws');
    const got: any[] = [];
    try {
      await new Promise<void>((resolve, reject) => {
        ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: { headers: admin } })));
        ws.on('error', reject);
        ws.on('message', (data) => {
          const m = JSON.parse(String(data));
          if (m.type === 'connection_ack') ws.send(JSON.stringify({ id: '1', type: 'subscribe', payload }));
          else if (m.type === 'next' || m.type === 'error') got.push({ type: m.type, payload: m.payload });
          if (m.type === 'complete' || m.type === 'error') resolve();
        });
      });
    } finally {
      ws.close();
    }
    return got;
  }

  it('runs a known hash and answers a miss', async () => {
    const doc = 'query wsAuthors { author(order_by: {id: asc}) { id } }';
    expect(await operation({ extensions: pq(doc) })).toEqual([{ type: 'error', payload: notFound.errors }]);
    expect(await operation({ query: doc, extensions: pq(doc) })).toEqual([{ type: 'next', payload: { data: { author: [{ id: 1 }, { id: 2 }] } } }]);
    expect(await operation({ extensions: pq(doc) })).toEqual([{ type: 'next', payload: { data: { author: [{ id: 1 }, { id: 2 }] } } }]);
  });
});
