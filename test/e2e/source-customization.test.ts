/**
 * A second PostgreSQL source with a `customization` (root-field namespace, prefix and suffix,
 * type-name prefix and suffix) and a table with a custom name: the names a client sees, on
 * every root, as the well-known engine gives them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import { startEngine, type Engine } from '../support/engine.js';
import { gql } from '../support/graphql.js';

let db: TestDatabase;
let other: TestDatabase;
let engine: Engine;

const customization = { root_fields: { namespace: 'my_source', prefix: 'fpref_', suffix: '_fsuff' }, type_names: { prefix: 'tpref_', suffix: '_tsuff' } };

beforeAll(async () => {
  db = await freshDatabase();
  other = await freshDatabase();
  await other.sql(`CREATE TABLE author (id serial PRIMARY KEY, name text UNIQUE); INSERT INTO author (name) VALUES ('Author 1'), ('Author 2');`);
  engine = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: db.url, OTHER_DB_URL: other.url });
  const added = await engine.metadata({ type: 'pg_add_source', args: { name: 'pg1', configuration: { connection_info: { database_url: { from_env: 'OTHER_DB_URL' } } }, customization } });
  expect(added.status).toBe(200);
  const tracked = await engine.metadata({ type: 'pg_track_table', args: { source: 'pg1', table: 'author', configuration: { custom_name: 'foo', custom_root_fields: { select_by_pk: 'bar' } } } });
  expect(tracked.status).toBe(200);
});

afterAll(async () => {
  await engine?.stop();
  await db?.drop();
  await other?.drop();
});

describe("a source's namespace type", () => {
  it('carries the type-name prefix and suffix on the query root', async () => {
    const r = await gql(engine, '{ my_source { __typename fpref_foo_fsuff(order_by: {id: asc}) { id __typename } fpref_bar_fsuff(id: 2) { name } } }');
    expect(r).toEqual({
      data: {
        my_source: {
          __typename: 'tpref_my_source_query_tsuff',
          fpref_foo_fsuff: [
            { id: 1, __typename: 'tpref_foo_tsuff' },
            { id: 2, __typename: 'tpref_foo_tsuff' },
          ],
          fpref_bar_fsuff: { name: 'Author 2' },
        },
      },
    });
  });

  it('carries them on the mutation root', async () => {
    const r = await gql(engine, 'mutation { a: my_source { b: __typename c: fpref_insert_foo_fsuff(objects: {id: 3, name: "Author 3"}) { __typename affected_rows } } }');
    expect(r).toEqual({ data: { a: { b: 'tpref_my_source_mutation_frontend_tsuff', c: { __typename: 'tpref_foo_mutation_response_tsuff', affected_rows: 1 } } } });
  });

  it('carries them on the subscription root', async () => {
    const r = await gql(engine, '{ __schema { subscriptionType { fields { name type { ofType { name } } } } } }');
    expect(r.data.__schema.subscriptionType.fields).toEqual([{ name: 'my_source', type: { ofType: { name: 'tpref_my_source_subscription_tsuff' } } }]);
  });
});
