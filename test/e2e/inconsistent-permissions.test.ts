/**
 * An inconsistent object is left out of the resolved model, never half in: one permission that
 * no longer resolves (here: its filter names a column that is gone) must not break the role's
 * other tables, nor other roles, nor admin.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';
import { gql } from '../support/graphql.js';

const fx = useEngine();
const user = { 'x-service-role': 'user', 'x-service-user-id': '1' };

beforeAll(async () => {
  await fx.db.sql(`
    CREATE TABLE author (id serial PRIMARY KEY, name text, owner_id int);
    CREATE TABLE article (id serial PRIMARY KEY, title text, author_id int REFERENCES author(id), owner_id int);
    INSERT INTO author (name, owner_id) VALUES ('Ada', 1), ('Bob', 2);
    INSERT INTO article (title, author_id, owner_id) VALUES ('On engines', 1, 1);
  `);
  const exp = (await fx.engine.metadata({ type: 'export_metadata', args: {} })).body;
  const own = { owner_id: { _eq: 'X-Service-User-Id' } };
  exp.sources[0].tables = [
    {
      table: { schema: 'public', name: 'author' },
      array_relationships: [{ name: 'articles', using: { foreign_key_constraint_on: { table: 'article', column: 'author_id' } } }],
      select_permissions: [{ role: 'user', permission: { columns: ['id', 'name'], filter: own } }],
    },
    {
      table: { schema: 'public', name: 'article' },
      object_relationships: [{ name: 'author', using: { foreign_key_constraint_on: 'author_id' } }],
      // `missing` is no column of article: this permission cannot resolve.
      select_permissions: [{ role: 'user', permission: { columns: ['id', 'title'], filter: { missing: { _eq: 1 } } } }],
      insert_permissions: [{ role: 'user', permission: { columns: ['title'], check: own, set: { owner_id: 'X-Service-User-Id' } } }],
    },
  ];
  const r = await fx.engine.metadata({ type: 'replace_metadata', version: 2, args: { allow_inconsistent_metadata: true, metadata: exp } });
  expect(r.status).toBe(200);
  expect(r.body.is_consistent).toBe(false);
  expect(r.body.inconsistent_objects).toEqual([expect.objectContaining({ type: 'select_permission', name: 'select_permission user in table article in source default' })]);
});

describe('a role with an inconsistent permission', () => {
  it('still reads its other tables', async () => {
    expect(await gql(fx.engine, '{ author { id name } }', undefined, user)).toEqual({ data: { author: [{ id: 1, name: 'Ada' }] } });
  });

  it('does not see the table whose permission is inconsistent, nor relationships to it', async () => {
    const r = await gql(fx.engine, '{ article { id } }', undefined, user);
    expect(r.errors[0]).toMatchObject({ message: "field 'article' not found in type: 'query_root'", extensions: { code: 'validation-failed' } });
    const rel = await gql(fx.engine, '{ author { articles { id } } }', undefined, user);
    expect(rel.errors[0]).toMatchObject({ message: "field 'articles' not found in type: 'author'", extensions: { code: 'validation-failed' } });
  });

  it("keeps the role's consistent permissions on that table", async () => {
    const r = await gql(fx.engine, 'mutation { insert_article(objects: [{title: "New"}]) { affected_rows } }', undefined, { ...user, 'x-service-user-id': '7' });
    expect(r).toEqual({ data: { insert_article: { affected_rows: 1 } } });
  });

  it('leaves admin untouched', async () => {
    expect(await gql(fx.engine, '{ article(order_by: {id: asc}) { title owner_id author { name } } }')).toEqual({
      data: {
        article: [
          { title: 'On engines', owner_id: 1, author: { name: 'Ada' } },
          { title: 'New', owner_id: 7, author: null },
        ],
      },
    });
  });
});
