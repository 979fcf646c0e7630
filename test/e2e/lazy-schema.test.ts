/**
 * Role schemas are built lazily (schema/lazy-schema.ts): types are found when a request names
 * them, even those no field led to yet, as in a complete schema.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';
import { gql } from '../support/graphql.js';

const fx = useEngine();

beforeAll(async () => {
  await fx.db.sql(`CREATE TABLE note (id serial PRIMARY KEY, body text); INSERT INTO note (body) VALUES ('one'), ('two');`);
  expect((await fx.engine.metadata({ type: 'pg_track_table', args: { table: 'note' } })).status).toBe(200);
});

describe('a lazily built schema', () => {
  it("answers a first request whose variable's type no field has led to yet", async () => {
    const r = await gql(fx.engine, 'query ($w: Int_comparison_exp) { note(where: {id: $w}) { body } }', { w: { _eq: 2 } });
    expect(r).toEqual({ data: { note: [{ body: 'two' }] } });
  });

  it('refuses an unknown type, and finds a type by name for fragments and introspection', async () => {
    const unknown = await gql(fx.engine, 'query ($w: Nope) { note { body } }', { w: 1 });
    expect(unknown.errors[0].message).toMatch(/^Unknown type "Nope"/);
    const fragment = await gql(fx.engine, '{ note(order_by: {id: asc}) { ...f } } fragment f on note { id }');
    expect(fragment).toEqual({ data: { note: [{ id: 1 }, { id: 2 }] } });
    const type = await gql(fx.engine, '{ __type(name: "String_comparison_exp") { name inputFields { name } } }');
    expect(type.data.__type.name).toBe('String_comparison_exp');
    expect(type.data.__type.inputFields.map((f: { name: string }) => f.name)).toContain('_ilike');
  });
});
