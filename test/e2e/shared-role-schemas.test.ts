/**
 * Roles whose schemas have the same shape share one schema and field table (built once), but
 * each role's request is compiled from its own permissions: filters, checks and presets.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';
import { gql } from '../support/graphql.js';

const fx = useEngine();
const as = (role: string) => ({ 'x-service-role': role });
const meta = async (type: string, args: unknown) => {
  const r = await fx.engine.metadata({ type, args });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
};

beforeAll(async () => {
  await fx.db.sql(`CREATE TABLE note (id serial PRIMARY KEY, body text, owner_id int); INSERT INTO note (body, owner_id) VALUES ('one', 1), ('two', 2);`);
  await meta('pg_track_table', { table: 'note' });
  for (const [role, owner] of [['first', 1], ['second', 2]] as const) {
    await meta('pg_create_select_permission', { table: 'note', role, permission: { columns: ['id', 'body'], filter: { owner_id: { _eq: owner } } } });
    await meta('pg_create_insert_permission', { table: 'note', role, permission: { columns: ['body'], check: {}, set: { owner_id: owner } } });
  }
  await meta('pg_create_select_permission', { table: 'note', role: 'narrow', permission: { columns: ['id'], filter: {} } });
});

describe('roles of the same schema shape', () => {
  it('each read their own rows', async () => {
    // Both roles' schemas are in use before either query runs again.
    for (const role of ['first', 'second', 'first', 'second']) {
      const expected = role === 'first' ? 'one' : 'two';
      expect(await gql(fx.engine, '{ note { body } }', undefined, as(role))).toEqual({ data: { note: [{ body: expected }] } });
    }
  });

  it('each insert with their own presets', async () => {
    await gql(fx.engine, 'mutation { insert_note(objects: [{body: "by first"}]) { affected_rows } }', undefined, as('first'));
    await gql(fx.engine, 'mutation { insert_note(objects: [{body: "by second"}]) { affected_rows } }', undefined, as('second'));
    const rows = (await fx.engine.runSql("SELECT body, owner_id FROM note WHERE body LIKE 'by %' ORDER BY id")).body.result;
    expect(rows).toEqual([['body', 'owner_id'], ['by first', '1'], ['by second', '2']]);
  });

  it('do not lend their fields to a role of another shape', async () => {
    const r = await gql(fx.engine, '{ note { body } }', undefined, as('narrow'));
    expect(r.errors[0].message).toBe("field 'body' not found in type: 'note'");
  });

  it('keep their schema across a permission change that leaves its shape, and compile from the new permissions', async () => {
    // Same columns, another filter: the shape is the same, the rows are not.
    await meta('pg_drop_select_permission', { table: 'note', role: 'first' });
    await meta('pg_create_select_permission', { table: 'note', role: 'first', permission: { columns: ['id', 'body'], filter: { owner_id: { _eq: 2 } } } });
    expect(await gql(fx.engine, '{ note(where: {body: {_in: ["one", "two"]}}) { body } }', undefined, as('first'))).toEqual({ data: { note: [{ body: 'two' }] } });
    // A change of shape: the column is gone from the schema.
    await meta('pg_drop_select_permission', { table: 'note', role: 'first' });
    await meta('pg_create_select_permission', { table: 'note', role: 'first', permission: { columns: ['id'], filter: {} } });
    const r = await gql(fx.engine, '{ note { body } }', undefined, as('first'));
    expect(r.errors[0].message).toBe("field 'body' not found in type: 'note'");
  });
});

describe('a permission change of one role', () => {
  beforeAll(async () => {
    await fx.db.sql(`CREATE TABLE memo (id int PRIMARY KEY, body text, owner_id int); INSERT INTO memo VALUES (1, 'mine', 1), (2, 'theirs', 2), (3, 'other', 3);`);
    await meta('pg_track_table', { table: 'memo' });
    await meta('pg_create_select_permission', { table: 'memo', role: 'a', permission: { columns: ['id', 'body'], filter: { owner_id: { _eq: 1 } } } });
    await meta('pg_create_select_permission', { table: 'memo', role: 'b', permission: { columns: ['id', 'body'], filter: { owner_id: { _eq: 2 } } } });
    // b keeps a permission while its select permission is replaced: a parent role must have one.
    await meta('pg_create_delete_permission', { table: 'memo', role: 'b', permission: { filter: { owner_id: { _eq: 2 } } } });
    await meta('add_inherited_role', { role_name: 'ab', role_set: ['a', 'b'] });
  });

  const ids = async (role: string) => (await gql(fx.engine, '{ memo(order_by: {id: asc}) { id } }', undefined, as(role))).data?.memo.map((r: { id: number }) => r.id);

  it('leaves the other roles as they were and reaches the roles inheriting from it', async () => {
    // Every role's schema is built before the change.
    expect(await ids('a')).toEqual([1]);
    expect(await ids('b')).toEqual([2]);
    expect(await ids('ab')).toEqual([1, 2]);
    await meta('pg_drop_select_permission', { table: 'memo', role: 'b' });
    await meta('pg_create_select_permission', { table: 'memo', role: 'b', permission: { columns: ['id'], filter: {} } });
    expect(await gql(fx.engine, '{ memo { id body } }', undefined, as('a'))).toEqual({ data: { memo: [{ id: 1, body: 'mine' }] } });
    expect((await gql(fx.engine, '{ memo { body } }', undefined, as('b'))).errors[0].message).toBe("field 'body' not found in type: 'memo'");
    expect(await ids('b')).toEqual([1, 2, 3]);
    expect(await ids('ab')).toEqual([1, 2, 3]);
  });
});
