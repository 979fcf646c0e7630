/**
 * Hostile values through every path a value takes into SQL: GraphQL literals, variables,
 * session variables (headers) in filters and presets, JSON paths, `_like` patterns, jsonb
 * values and the deprecated `/v1/query` DML. Each value must be stored and read back exactly
 * as sent (checked with run_sql), and nothing else may run: the canary table survives.
 */
import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { useEngine } from '../support/fixture.js';
import { replaceTables } from '../support/graphql.js';

const fx = useEngine();

const PAYLOADS: Record<string, string> = {
  single_quote: "it's ''quoted''",
  double_quote: 'say "hi" ""',
  backslash: 'C:\\dir\\ \\\\ end\\',
  dollar_quote: '$$; DROP TABLE canary; $$ $tag$ x $tag$',
  placeholder: '$1 $2::text ($3)',
  escape_string: "E'\\x41' E'\\\\' U&'\\0041'",
  line_comment: "x'); DROP TABLE canary; --",
  block_comment: "/* */ '; DELETE FROM note; /*",
  emoji: '😀 👍🏽 👨‍👩‍👧 🏳️‍🌈',
  rtl: 'مرحبا \u202Eevil\u202C שלום',
  combining: 'e\u0301 a\u0308 Z\u0351\u0352\u0353',
  control: 'a\nb\tc\r\n\u0001\u001f',
  long: `${"'".repeat(10)}${'x'.repeat(1 << 20)}`,
};

/** Payloads a header can carry (HTTP header values are bytes without CR, LF or NUL). */
const HEADER_SAFE = ['single_quote', 'double_quote', 'backslash', 'dollar_quote', 'placeholder', 'escape_string', 'line_comment', 'block_comment'];

const gqlString = (s: string) => JSON.stringify(s); // JSON string escapes are GraphQL string escapes
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

async function gql(query: string, variables?: Record<string, unknown>, headers: Record<string, string> = {}) {
  const r = await fx.engine.post('/v1/graphql', { query, variables }, headers);
  expect(r.status, JSON.stringify(r.body).slice(0, 500)).toBe(200);
  return r.body;
}

async function data(query: string, variables?: Record<string, unknown>, headers: Record<string, string> = {}) {
  const body = await gql(query, variables, headers);
  expect(body.errors, JSON.stringify(body.errors)?.slice(0, 500)).toBeUndefined();
  return body.data;
}

/** One row read back through run_sql (text values as PostgreSQL returns them). */
async function stored(id: number): Promise<{ body: string | null; k: string | null; owner: string | null; tag: string | null }> {
  const r = await fx.engine.runSql(`SELECT body, doc->>'k', owner, tag FROM note WHERE id = ${Number(id)}`);
  expect(r.status).toBe(200);
  const [body, k, owner, tag] = r.body.result[1];
  return { body, k, owner, tag };
}

async function canaryAlive(): Promise<void> {
  const r = await fx.engine.runSql('SELECT count(*) FROM canary');
  expect(r.body.result).toEqual([['count'], ['1']]);
}

beforeAll(async () => {
  await fx.db.sql(`
    CREATE TABLE note (id serial PRIMARY KEY, body text, doc jsonb, owner text, tag text);
    CREATE TABLE canary (id integer PRIMARY KEY);
    INSERT INTO canary VALUES (1);
  `);
  await replaceTables(fx.engine, [
    {
      table: { schema: 'public', name: 'note' },
      select_permissions: [{ role: 'user', permission: { columns: '*', filter: { owner: { _eq: 'X-Service-User-Id' } } } }],
      insert_permissions: [{ role: 'user', permission: { columns: ['body', 'doc'], set: { owner: 'X-Service-User-Id' }, check: {} } }],
      update_permissions: [{ role: 'user', permission: { columns: ['body'], filter: { owner: { _eq: 'X-Service-User-Id' } }, set: { tag: 'X-Service-User-Id' } } }],
    },
    { table: { schema: 'public', name: 'canary' } },
  ]);
});

afterAll(async () => {
  if (fx.engine) await canaryAlive();
});

describe.each(Object.entries(PAYLOADS))('%s', (_name, value) => {
  let literalId = 0;
  let variableId = 0;

  it('is stored as sent from a GraphQL literal and from variables', async () => {
    const inline = await data(`mutation { insert_note_one(object: {body: ${gqlString(value)}, doc: {k: ${gqlString(value)}}}) { id body doc } }`);
    literalId = inline.insert_note_one.id;
    expect(inline.insert_note_one.body === value && inline.insert_note_one.doc.k === value).toBe(true);
    expect(await stored(literalId)).toEqual({ body: value, k: value, owner: null, tag: null });

    const vars = await data('mutation ($b: String!, $d: jsonb!) { insert_note_one(object: {body: $b, doc: $d}) { id body doc } }', { b: value, d: { k: value } });
    variableId = vars.insert_note_one.id;
    expect(vars.insert_note_one.body === value && vars.insert_note_one.doc.k === value).toBe(true);
    expect(await stored(variableId)).toEqual({ body: value, k: value, owner: null, tag: null });
  });

  it('is compared as a value: _eq, _like, jsonb _contains and _has_key, literal and variable', async () => {
    const ids = (rows: { id: number }[]) => rows.map((r) => r.id);
    const both = [literalId, variableId];
    const inline = await data(`{
      eq: note(where: {body: {_eq: ${gqlString(value)}}}, order_by: {id: asc}) { id }
      like: note(where: {body: {_like: ${gqlString(likeEscape(value))}}}, order_by: {id: asc}) { id }
      contains: note(where: {doc: {_contains: {k: ${gqlString(value)}}}}, order_by: {id: asc}) { id }
    }`);
    expect([ids(inline.eq), ids(inline.like), ids(inline.contains)]).toEqual([both, both, both]);
    const vars = await data(
      `query ($v: String!, $p: String!, $d: jsonb!) {
        eq: note(where: {body: {_eq: $v}}, order_by: {id: asc}) { id }
        like: note(where: {body: {_like: $p}}, order_by: {id: asc}) { id }
        contains: note(where: {doc: {_contains: $d}}, order_by: {id: asc}) { id }
        key: note(where: {doc: {_has_key: $v}}) { id }
      }`,
      { v: value, p: likeEscape(value), d: { k: value } },
    );
    expect([ids(vars.eq), ids(vars.like), ids(vars.contains), ids(vars.key)]).toEqual([both, both, both, []]);
  });

  it('reads a jsonb key named by it through the path argument, or refuses the path cleanly', async () => {
    const ins = await data('mutation ($d: jsonb!) { insert_note_one(object: {doc: $d}) { id } }', { d: { [value]: 'found' } });
    const path = `$["${value}"]`;
    const body = await gql('query ($id: Int!, $path: String!) { note_by_pk(id: $id) { doc(path: $path) } }', { id: ins.insert_note_one.id, path });
    // The bracket form takes the key as written (no escapes): a key with a double quote cannot be named in `["..."]`, and is refused.
    if (/"/.test(value)) expect(body.errors[0]).toMatchObject({ message: `invalid JSON path ${JSON.stringify(path)}`, extensions: { code: 'validation-failed' } });
    else expect(body.data.note_by_pk.doc).toBe('found');
  });

  it('goes through /v1/query insert, select, update, count and delete', async () => {
    const q = (type: string, args: Record<string, unknown>) => fx.engine.query({ type, args });
    const ins = await q('insert', { table: 'note', objects: [{ body: value, doc: { k: value } }], returning: ['id', 'body', 'doc'] });
    expect(ins.status).toBe(200);
    const id = ins.body.returning[0].id;
    expect(ins.body.returning[0].body === value && ins.body.returning[0].doc.k === value).toBe(true);
    expect(await stored(id)).toEqual({ body: value, k: value, owner: null, tag: null });

    const sel = await q('select', { table: 'note', columns: ['id'], where: { _and: [{ body: { _eq: value } }, { doc: { _contains: { k: value } } }, { id: { _eq: id } }] } });
    expect(sel.body).toEqual([{ id }]);
    const upd = await q('update', { table: 'note', where: { id: { _eq: id } }, $set: { body: `${value}!`, tag: value } });
    expect(upd.body).toEqual({ affected_rows: 1 });
    expect(await stored(id)).toEqual({ body: `${value}!`, k: value, owner: null, tag: value });
    expect((await q('count', { table: 'note', where: { tag: { _eq: value } } })).body).toEqual({ count: 1 });
    expect((await q('delete', { table: 'note', where: { tag: { _eq: value } } })).body).toEqual({ affected_rows: 1 });
    await canaryAlive();
  });
});

describe.each(HEADER_SAFE.map((n) => [n, PAYLOADS[n]!]))('%s as a session variable', (_name, value) => {
  const user = { 'X-Service-Role': 'user', 'X-Service-User-Id': value };

  it('fills insert and update presets and is compared in the select filter', async () => {
    const ins = await data('mutation { insert_note_one(object: {body: "mine"}) { id owner } }', undefined, user);
    const id = ins.insert_note_one.id;
    expect(ins.insert_note_one.owner).toBe(value);
    const upd = await data('mutation { update_note(where: {}, _set: {body: "edited"}) { affected_rows returning { id tag } } }', undefined, user);
    expect(upd.update_note).toEqual({ affected_rows: 1, returning: [{ id, tag: value }] });
    expect(await stored(id)).toEqual({ body: 'edited', k: null, owner: value, tag: value });
    expect((await data('{ note { id } }', undefined, user)).note).toEqual([{ id }]);
    await canaryAlive();
  });
});

/** POSTs with one header whose value goes on the wire as UTF-8 bytes (fetch and node:http refuse or re-encode them). */
function postWithUtf8Header(path: string, body: unknown, name: string, value: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const payload = Buffer.from(JSON.stringify(body), 'utf8');
    const head = `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\nX-Service-Role: user\r\nContent-Length: ${payload.length}\r\n${name}: `;
    const chunks: Buffer[] = [];
    const socket = connect(fx.engine.port, '127.0.0.1', () => socket.write(Buffer.concat([Buffer.from(head, 'latin1'), Buffer.from(value, 'utf8'), Buffer.from('\r\n\r\n', 'latin1'), payload])));
    socket.on('error', reject);
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const length = /content-length: *(\d+)/i.exec(text)?.[1];
      if (split < 0 || length === undefined || Buffer.byteLength(text.slice(split + 4)) < Number(length)) return;
      socket.destroy();
      resolve({ status: Number(text.slice(9, 12)), body: JSON.parse(text.slice(split + 4)) });
    });
  });
}

describe('session variables beyond ASCII and size', () => {
  // Wrapped in ASCII: the HTTP layer (uWebSockets.js) trims bytes >= 0x80 at both ends of a
  // header value as if they were whitespace, so a value that starts or ends with them loses them.
  it.each(['emoji', 'rtl', 'combining'])('%s in a header is read as UTF-8 and stored as sent', async (name) => {
    const value = `<${PAYLOADS[name]!}>`;
    const r = await postWithUtf8Header('/v1/graphql', { query: 'mutation { insert_note_one(object: {body: "utf8"}) { id owner } }' }, 'x-service-user-id', value);
    expect(r.status).toBe(200);
    expect(r.body.data.insert_note_one.owner).toBe(value);
    expect((await stored(r.body.data.insert_note_one.id)).owner).toBe(value);
  });

  it('a header too large for the server is refused without running anything', async () => {
    const before = (await fx.engine.runSql('SELECT count(*) FROM note')).body.result;
    const r = await fetch(`${fx.engine.url}/v1/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-role': 'user', 'x-service-user-id': 'x'.repeat(1 << 20) },
      body: JSON.stringify({ query: 'mutation { insert_note_one(object: {body: "big"}) { id } }' }),
    }).then(
      (res) => res.status,
      // The server answers 431 and closes while the client may still be writing the header.
      () => 'connection closed',
    );
    expect([431, 'connection closed']).toContain(r);
    expect((await fx.engine.runSql('SELECT count(*) FROM note')).body.result).toEqual(before);
  });
});

describe('NUL characters', () => {
  const nul = 'before\u0000after';
  const refused = (body: any) => {
    expect(body.data ?? null).toBeNull();
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0].extensions.code).not.toBe('unexpected');
  };

  it('are refused by text and jsonb columns with a clean error, in literals and variables', async () => {
    const before = (await fx.engine.runSql('SELECT count(*) FROM note')).body.result;
    const errors = [
      await gql(`mutation { insert_note_one(object: {body: ${gqlString(nul)}}) { id } }`),
      await gql('mutation ($b: String!) { insert_note_one(object: {body: $b}) { id } }', { b: nul }),
      await gql('mutation ($d: jsonb!) { insert_note_one(object: {doc: $d}) { id } }', { d: { k: nul } }),
      await gql(`{ note(where: {body: {_eq: ${gqlString(nul)}}}) { id } }`),
      await gql('query ($b: String!) { note(where: {body: {_like: $b}}) { id } }', { b: nul }),
    ];
    for (const e of errors) refused(e);
    expect(errors.map((e) => e.errors[0].extensions.code)).toEqual(['data-exception', 'data-exception', 'data-exception', 'data-exception', 'data-exception']);
    expect((await fx.engine.runSql('SELECT count(*) FROM note')).body.result).toEqual(before);
  });

  it('are refused by /v1/query with a 400', async () => {
    const r = await fx.engine.query({ type: 'insert', args: { table: 'note', objects: [{ body: nul }] } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('data-exception');
  });
});
