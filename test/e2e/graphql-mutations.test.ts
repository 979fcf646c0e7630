import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';
import { gql, replaceTables } from '../support/graphql.js';

const fx = useEngine({ SERVICE_GRAPHQL_ADMIN_SECRET: 'secret' });
const admin = { 'X-Service-Admin-Secret': 'secret' };
const as = (role: string, extra: Record<string, string> = {}) => ({ ...admin, 'X-Service-Role': role, ...extra });
const q = (query: string, variables?: Record<string, unknown>, headers: Record<string, string> = admin) => gql(fx.engine, query, variables, headers);
const rows = async (sql: string) => (await fx.db.sql(sql)).rows;

beforeAll(async () => {
  await fx.db.sql(`
    CREATE TABLE author (id serial PRIMARY KEY, name text NOT NULL UNIQUE, meta jsonb, owner text);
    CREATE TABLE article (id serial PRIMARY KEY, title text NOT NULL, rating int, author_id int REFERENCES author(id), editor text,
      updated_at timestamptz);
  `);
  const meta = await fx.engine.metadata({ type: 'export_metadata', args: {} }, admin);
  expect(meta.status).toBe(200);
});

beforeEach(async () => {
  await fx.db.sql(`TRUNCATE article, author RESTART IDENTITY CASCADE;
    INSERT INTO author (name, meta, owner) VALUES ('Ada', '{"tags": ["a"], "n": {"x": 1}}', 'u1'), ('Bob', '[1, 2, 3]', 'u2');
    INSERT INTO article (title, rating, author_id, editor) VALUES ('Alpha', 5, 1, 'u1'), ('Beta', 7, 2, 'u2');`);
});

beforeAll(async () => {
  // Permissions as the metadata API stores them; tables set up in the first hook.
  await replaceTablesWithSecret();
});

async function replaceTablesWithSecret() {
  const exp = (await fx.engine.metadata({ type: 'export_metadata', args: {} }, admin)).body;
  exp.sources[0].tables = [
    {
      table: { schema: 'public', name: 'author' },
      array_relationships: [{ name: 'articles', using: { foreign_key_constraint_on: { table: 'article', columns: ['author_id'] } } }],
      insert_permissions: [{ role: 'writer', permission: { columns: ['name'], set: { owner: 'X-Service-User-Id' }, check: {} } }],
      select_permissions: [{ role: 'writer', permission: { columns: ['id', 'name', 'owner'], filter: {} } }],
    },
    {
      table: { schema: 'public', name: 'article' },
      object_relationships: [{ name: 'author', using: { foreign_key_constraint_on: 'author_id' } }],
      insert_permissions: [
        { role: 'writer', permission: { columns: ['title', 'rating', 'author_id'], set: { editor: 'X-Service-User-Id' }, check: { rating: { _lte: 10 } } } },
        { role: 'backend', permission: { columns: ['title'], check: {}, backend_only: true } },
      ],
      select_permissions: [
        { role: 'writer', permission: { columns: ['id', 'title', 'rating', 'editor', 'author_id'], filter: {} } },
        { role: 'backend', permission: { columns: ['id', 'title'], filter: {} } },
      ],
      update_permissions: [
        { role: 'writer', permission: { columns: ['title', 'rating'], filter: { editor: { _eq: 'X-Service-User-Id' } }, check: { rating: { _lte: 10 } }, set: { updated_at: '2021-01-01T00:00:00Z' } } },
      ],
      delete_permissions: [{ role: 'writer', permission: { filter: { editor: { _eq: 'X-Service-User-Id' } } } }],
    },
  ];
  const r = await fx.engine.metadata({ type: 'replace_metadata', args: exp }, admin);
  expect(r.status).toBe(200);
}
void replaceTables;

describe('insert', () => {
  it('inserts rows and returns them with relationships', async () => {
    const r = await q('mutation { insert_article(objects: [{title: "Gamma", rating: 1, author_id: 1}, {title: "Delta"}]) { affected_rows returning { id title author { name } } } }');
    expect(r).toEqual({ data: { insert_article: { affected_rows: 2, returning: [{ id: 3, title: 'Gamma', author: { name: 'Ada' } }, { id: 4, title: 'Delta', author: null }] } } });
  });

  it('inserts one row', async () => {
    const r = await q('mutation ($t: String!) { insert_article_one(object: {title: $t, author_id: 2}) { title author { name } } }', { t: 'Eta' });
    expect(r).toEqual({ data: { insert_article_one: { title: 'Eta', author: { name: 'Bob' } } } });
  });

  it('inserts nested rows in both directions', async () => {
    const down = await q('mutation { insert_author(objects: [{name: "Cy", articles: {data: [{title: "C1"}, {title: "C2"}]}}]) { affected_rows returning { name articles(order_by: {id: asc}) { title } } } }');
    expect(down.data.insert_author).toEqual({ affected_rows: 3, returning: [{ name: 'Cy', articles: [{ title: 'C1' }, { title: 'C2' }] }] });
    const up = await q('mutation { insert_article_one(object: {title: "D1", author: {data: {name: "Dee"}}}) { title author { name } } }');
    expect(up.data.insert_article_one).toEqual({ title: 'D1', author: { name: 'Dee' } });
    expect(await rows(`SELECT a.title FROM article a JOIN author w ON w.id = a.author_id WHERE w.name = 'Dee'`)).toEqual([{ title: 'D1' }]);
  });

  it('refuses a foreign key given twice in a nested insert', async () => {
    const r = await q('mutation { insert_article_one(object: {title: "X", author_id: 1, author: {data: {name: "Z"}}}) { id } }');
    expect(r.errors[0].message).toBe('cannot insert object relation ship "author" as "author_id" column values are already determined');
    expect(await rows(`SELECT * FROM author WHERE name = 'Z'`)).toEqual([]);
  });

  it('upserts: updates the listed columns, or does nothing', async () => {
    const upd = await q('mutation { insert_author(objects: [{name: "Ada", meta: {v: 2}}], on_conflict: {constraint: author_name_key, update_columns: [meta]}) { affected_rows returning { id meta } } }');
    expect(upd.data.insert_author).toEqual({ affected_rows: 1, returning: [{ id: 1, meta: { v: 2 } }] });
    const none = await q('mutation { insert_author(objects: [{name: "Ada"}], on_conflict: {constraint: author_name_key, update_columns: []}) { affected_rows } }');
    expect(none.data.insert_author.affected_rows).toBe(0);
    const where = await q('mutation { insert_author(objects: [{name: "Bob", meta: {v: 3}}], on_conflict: {constraint: author_name_key, update_columns: [meta], where: {name: {_eq: "nobody"}}}) { affected_rows } }');
    expect(where.data.insert_author.affected_rows).toBe(0);
  });

  it('applies presets from session variables and verifies the check', async () => {
    const h = as('writer', { 'X-Service-User-Id': 'u9' });
    const ok = await q('mutation { insert_article_one(object: {title: "W", rating: 3, author_id: 1}) { editor } }', undefined, h);
    expect(ok.data.insert_article_one).toEqual({ editor: 'u9' });
    const bad = await q('mutation { insert_article(objects: [{title: "W2", rating: 11}]) { affected_rows } }', undefined, h);
    expect(bad.errors[0]).toEqual({ message: 'Check constraint violation. insert check constraint failed', extensions: { path: '$', code: 'permission-error' } });
    expect(await rows(`SELECT * FROM article WHERE title = 'W2'`)).toEqual([]);
  });

  it('does not let a role set a column outside its permission', async () => {
    const r = await q('mutation { insert_article(objects: [{title: "W", editor: "me"}]) { affected_rows } }', undefined, as('writer', { 'X-Service-User-Id': 'u9' }));
    expect(r.errors[0].extensions.code).toBe('validation-failed');
    expect(r.errors[0].message).toContain('editor');
  });

  it('uses backend_only permissions only with the admin secret and the header', async () => {
    const without = await q('mutation { insert_article(objects: [{title: "B"}]) { affected_rows } }', undefined, as('backend'));
    expect(without.errors[0].extensions.code).toBe('validation-failed');
    const withHeader = await q('mutation { insert_article(objects: [{title: "B"}]) { affected_rows } }', undefined, as('backend', { 'X-Service-Use-Backend-Only-Permissions': 'true' }));
    expect(withHeader.data.insert_article.affected_rows).toBe(1);
  });
});

describe('update and delete', () => {
  it('updates with _set and _inc, by primary key, and many', async () => {
    const r = await q('mutation { update_article(where: {id: {_eq: 1}}, _set: {title: "A2"}, _inc: {rating: 2}) { affected_rows returning { title rating } } }');
    expect(r.data.update_article).toEqual({ affected_rows: 1, returning: [{ title: 'A2', rating: 7 }] });
    const pk = await q('mutation { update_article_by_pk(pk_columns: {id: 2}, _set: {rating: 1}) { rating } missing: update_article_by_pk(pk_columns: {id: 99}, _set: {rating: 1}) { rating } }');
    expect(pk.data).toEqual({ update_article_by_pk: { rating: 1 }, missing: null });
    const many = await q('mutation { update_article_many(updates: [{where: {id: {_eq: 1}}, _set: {rating: 0}}, {where: {}, _inc: {rating: 1}}]) { affected_rows } }');
    expect(many.data.update_article_many).toEqual([{ affected_rows: 1 }, { affected_rows: 2 }]);
  });

  it('applies every jsonb operator', async () => {
    const run = async (op: string) => {
      const r = await q(`mutation { update_author_by_pk(pk_columns: {id: 1}, ${op}) { meta } }`);
      if (!r.data) throw new Error(JSON.stringify(r));
      return r.data.update_author_by_pk.meta;
    };
    expect(await run('_append: {meta: {z: 1}}')).toEqual({ tags: ['a'], n: { x: 1 }, z: 1 });
    expect(await run('_prepend: {meta: {y: 0}}')).toEqual({ tags: ['a'], n: { x: 1 }, z: 1, y: 0 });
    expect(await run('_delete_key: {meta: "z"}')).toEqual({ tags: ['a'], n: { x: 1 }, y: 0 });
    expect(await run('_delete_at_path: {meta: ["n", "x"]}')).toEqual({ tags: ['a'], n: {}, y: 0 });
    const elem = await q('mutation { update_author_by_pk(pk_columns: {id: 2}, _delete_elem: {meta: 0}) { meta } }');
    expect(elem.data.update_author_by_pk.meta).toEqual([2, 3]);
  });

  it('updates only rows the filter allows, checks the result and applies presets', async () => {
    const h = as('writer', { 'X-Service-User-Id': 'u1' });
    const r = await q('mutation { update_article(where: {}, _set: {title: "mine"}) { affected_rows } }', undefined, h);
    expect(r.data.update_article.affected_rows).toBe(1);
    expect(await rows('SELECT id, title, updated_at IS NOT NULL AS stamped FROM article ORDER BY id')).toEqual([
      { id: 1, title: 'mine', stamped: true },
      { id: 2, title: 'Beta', stamped: false },
    ]);
    const bad = await q('mutation { update_article(where: {}, _set: {rating: 50}) { affected_rows } }', undefined, h);
    expect(bad.errors[0].extensions.code).toBe('permission-error');
    expect(await rows('SELECT rating FROM article WHERE id = 1')).toEqual([{ rating: 5 }]);
  });

  it('deletes only rows the filter allows, and by primary key', async () => {
    const h = as('writer', { 'X-Service-User-Id': 'u2' });
    const r = await q('mutation { delete_article(where: {}) { affected_rows returning { id } } }', undefined, h);
    expect(r.data.delete_article).toEqual({ affected_rows: 1, returning: [{ id: 2 }] });
    const pk = await q('mutation { delete_article_by_pk(id: 1) { title } }');
    expect(pk.data.delete_article_by_pk).toEqual({ title: 'Alpha' });
    expect(await rows('SELECT count(*)::int AS n FROM article')).toEqual([{ n: 0 }]);
  });
});

describe('transactions', () => {
  it('rolls back the first mutation when the second fails', async () => {
    const r = await q('mutation { a: insert_author_one(object: {name: "New"}) { id } b: insert_author_one(object: {name: "Ada"}) { id } }');
    expect(r.errors[0]).toMatchObject({ extensions: { code: 'constraint-violation', path: '$.selectionSet.b.args' } });
    expect(await rows(`SELECT * FROM author WHERE name = 'New'`)).toEqual([]);
  });

  it('reports a data error and changes nothing', async () => {
    const r = await q('mutation { insert_article(objects: [{title: "J", updated_at: "not a date"}]) { affected_rows } }');
    expect(r.errors[0].extensions.code).toBe('data-exception');
    expect(await rows(`SELECT * FROM article WHERE title = 'J'`)).toEqual([]);
  });
});
