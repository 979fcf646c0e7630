/**
 * A metadata change evicts only the cached plans that read what it changed: every request
 * here is run once before the change (so its plan is cached) and once after, and the answer
 * after must follow the new metadata, whether the change was to the table queried, to a
 * table reached through a relationship or a permission filter, to the source, or to roles.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';
import { gql } from '../support/graphql.js';

// Debug logs: each plan compiled (a cache miss) is a line.
const fx = useEngine({ SERVICE_GRAPHQL_LOG_LEVEL: 'debug' });
const user = { 'x-service-role': 'user', 'x-service-user-id': '1' };
const meta = async (type: string, args: unknown) => {
  const r = await fx.engine.metadata({ type, args });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
};

beforeAll(async () => {
  await fx.db.sql(`
    CREATE TABLE author (id serial PRIMARY KEY, name text, owner_id int);
    CREATE TABLE article (id serial PRIMARY KEY, title text, author_id int REFERENCES author(id));
    CREATE TABLE other (id serial PRIMARY KEY, label text);
    INSERT INTO author (name, owner_id) VALUES ('Ada', 1), ('Bob', 2);
    INSERT INTO article (title, author_id) VALUES ('A1', 1), ('B1', 2);
    INSERT INTO other (label) VALUES ('x');
  `);
  for (const table of ['author', 'article', 'other']) await meta('pg_track_table', { table });
  await meta('pg_create_object_relationship', { table: 'article', name: 'author', using: { foreign_key_constraint_on: 'author_id' } });
  await meta('pg_create_select_permission', { table: 'author', role: 'user', permission: { columns: ['id', 'name'], filter: {} } });
  await meta('pg_create_select_permission', { table: 'article', role: 'user', permission: { columns: ['id', 'title'], filter: { author: { owner_id: { _eq: 'X-Service-User-Id' } } } } });
  await meta('pg_create_select_permission', { table: 'other', role: 'user', permission: { columns: ['id', 'label'], filter: {} } });
});

const authors = '{ author(order_by: {id: asc}) { name } }';
const articles = '{ article(order_by: {id: asc}) { title author { name } } }';

/** How many plans were compiled for a role since the engine started. */
const compiled = (role: string) => fx.engine.logs.filter((l) => l.includes('"plan compiled"') && l.includes(`"role":"${role}"`)).length;

describe('a burst of requests for a query not compiled yet', () => {
  it('compiles it once: the others wait for that compile', async () => {
    const before = compiled('admin');
    const q = '{ burst: other { id label } }';
    const answers = await Promise.all(Array.from({ length: 20 }, () => gql(fx.engine, q)));
    for (const a of answers) expect(a).toEqual({ data: { burst: [{ id: 1, label: 'x' }] } });
    expect(compiled('admin')).toBe(before + 1);
  });
});

describe('a request that fails whatever its variables', () => {
  const kept = () => fx.engine.logs.filter((l) => l.includes('"invalid document kept"')).length;

  it('is checked once: the same answer again without a compile, until the metadata changes', async () => {
    const q = '{ later { id } }';
    const before = kept();
    const first = await gql(fx.engine, q, undefined, user);
    expect(first).toEqual({ errors: [{ message: "field 'later' not found in type: 'query_root'", extensions: { path: '$.selectionSet.later', code: 'validation-failed' } }] });
    for (let i = 0; i < 3; i++) expect(await gql(fx.engine, q, undefined, user)).toEqual(first);
    expect(kept()).toBe(before + 1);
    // A change may make it valid: the next request is checked again.
    await fx.db.sql('CREATE TABLE later (id int PRIMARY KEY); INSERT INTO later VALUES (1)');
    await meta('pg_track_table', { table: 'later' });
    await meta('pg_create_select_permission', { table: 'later', role: 'user', permission: { columns: ['id'], filter: {} } });
    expect(await gql(fx.engine, q, undefined, user)).toEqual({ data: { later: [{ id: 1 }] } });
  });

  it('but not one whose variables are wrong: other variables compile', async () => {
    const q = 'query ($id: Int!) { other(where: {id: {_eq: $id}}) { label } }';
    const wrong = await gql(fx.engine, q, { id: 'one' }, user);
    expect(wrong.errors[0].extensions.code).toBe('validation-failed');
    expect(await gql(fx.engine, q, { id: 1 }, user)).toEqual({ data: { other: [{ label: 'x' }] } });
  });
});

describe('cached plans after a metadata change', () => {
  it("keep the plans of other roles (and admin's) when a role's permission on the table changes", async () => {
    const reader = { 'x-service-role': 'reader', 'x-service-user-id': '1' };
    await meta('pg_create_select_permission', { table: 'other', role: 'reader', permission: { columns: ['id', 'label'], filter: {} } });
    const q = '{ other { label } }';
    for (const headers of [user, reader, undefined]) expect(await gql(fx.engine, q, undefined, headers)).toEqual({ data: { other: [{ label: 'x' }] } });
    const before = { user: compiled('user'), reader: compiled('reader'), admin: compiled('admin') };
    await meta('pg_drop_select_permission', { table: 'other', role: 'user' });
    await meta('pg_create_select_permission', { table: 'other', role: 'user', permission: { columns: ['id', 'label'], filter: { id: { _eq: -1 } } } });
    expect(await gql(fx.engine, q, undefined, user)).toEqual({ data: { other: [] } });
    for (const headers of [reader, undefined]) expect(await gql(fx.engine, q, undefined, headers)).toEqual({ data: { other: [{ label: 'x' }] } });
    expect({ user: compiled('user'), reader: compiled('reader'), admin: compiled('admin') }).toEqual({ ...before, user: before.user + 1 });
    await meta('pg_drop_select_permission', { table: 'other', role: 'user' });
    await meta('pg_create_select_permission', { table: 'other', role: 'user', permission: { columns: ['id', 'label'], filter: {} } });
  });

  it('follow a change to the permission of the table queried', async () => {
    expect(await gql(fx.engine, authors, undefined, user)).toEqual({ data: { author: [{ name: 'Ada' }, { name: 'Bob' }] } });
    await meta('pg_drop_select_permission', { table: 'author', role: 'user' });
    await meta('pg_create_select_permission', { table: 'author', role: 'user', permission: { columns: ['id', 'name'], filter: { owner_id: { _eq: 'X-Service-User-Id' } } } });
    expect(await gql(fx.engine, authors, undefined, user)).toEqual({ data: { author: [{ name: 'Ada' }] } });
  });

  it('follow a change to a table reached through a relationship', async () => {
    expect(await gql(fx.engine, articles, undefined, user)).toEqual({ data: { article: [{ title: 'A1', author: { name: 'Ada' } }] } });
    await meta('pg_drop_select_permission', { table: 'author', role: 'user' });
    await meta('pg_create_select_permission', { table: 'author', role: 'user', permission: { columns: ['id', 'name'], filter: { owner_id: { _eq: 0 } } } });
    expect(await gql(fx.engine, articles, undefined, user)).toEqual({ data: { article: [{ title: 'A1', author: null }] } });
  });

  it("follow a change to the permission of a table a request's where reaches through a relationship", async () => {
    // The where applies the target's select filter, now `owner_id = 0`: no author matches.
    const byAuthor = '{ article(where: {author: {name: {_eq: "Ada"}}}) { title } }';
    expect(await gql(fx.engine, byAuthor, undefined, user)).toEqual({ data: { article: [] } });
    await meta('pg_drop_select_permission', { table: 'author', role: 'user' });
    await meta('pg_create_select_permission', { table: 'author', role: 'user', permission: { columns: ['id', 'name'], filter: {} } });
    expect(await gql(fx.engine, byAuthor, undefined, user)).toEqual({ data: { article: [{ title: 'A1' }] } });
  });

  it('keep answering queries of tables the change did not touch, with the same answers', async () => {
    const others = '{ other { label } }';
    expect(await gql(fx.engine, others, undefined, user)).toEqual({ data: { other: [{ label: 'x' }] } });
    await meta('pg_set_table_customization', { table: 'article', configuration: { custom_name: 'post' } });
    expect(await gql(fx.engine, others, undefined, user)).toEqual({ data: { other: [{ label: 'x' }] } });
    const renamed = await gql(fx.engine, articles, undefined, user);
    expect(renamed.errors[0].message).toBe("field 'article' not found in type: 'query_root'");
  });

  it('follow a change of the source customization', async () => {
    const others = '{ other { label } }';
    expect((await gql(fx.engine, others)).data).toEqual({ other: [{ label: 'x' }] });
    await meta('pg_update_source', { name: 'default', customization: { root_fields: { prefix: 'db_' } } });
    expect((await gql(fx.engine, others)).errors[0].message).toBe("field 'other' not found in type: 'query_root'");
    expect((await gql(fx.engine, '{ db_other { label } }')).data).toEqual({ db_other: [{ label: 'x' }] });
  });

  it('follow a change of inherited roles', async () => {
    const q = '{ db_other { label } }';
    const team = { 'x-service-role': 'team', 'x-service-user-id': '1' };
    await meta('pg_create_select_permission', { table: 'other', role: 'guest', permission: { columns: ['id', 'label'], filter: { id: { _eq: -1 } } } });
    await meta('pg_create_select_permission', { table: 'author', role: 'writer', permission: { columns: ['id'], filter: {} } });
    await meta('add_inherited_role', { role_name: 'team', role_set: ['user', 'guest'] });
    expect(await gql(fx.engine, q, undefined, team)).toEqual({ data: { db_other: [{ label: 'x' }] } });
    await meta('drop_inherited_role', { role_name: 'team' });
    await meta('add_inherited_role', { role_name: 'team', role_set: ['writer', 'guest'] });
    expect(await gql(fx.engine, q, undefined, team)).toEqual({ data: { db_other: [] } });
  });
});
