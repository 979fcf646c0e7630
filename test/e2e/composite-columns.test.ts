/** Columns of a composite type of their own: typed by a scalar named after it, as the well-known engine names them. */
import { beforeAll, describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';
import { gql } from '../support/graphql.js';

const fx = useEngine();

beforeAll(async () => {
  await fx.db.sql(`
    CREATE TYPE complex AS (r double precision, i double precision);
    CREATE TABLE author (id serial PRIMARY KEY, name text);
    CREATE TABLE reading (id serial PRIMARY KEY, value complex, who author);
  `);
  const r = await fx.engine.metadata({ type: 'bulk', args: [{ type: 'pg_track_table', args: { table: 'author' } }, { type: 'pg_track_table', args: { table: 'reading' } }] });
  expect(r.status).toBe(200);
});

describe('composite columns', () => {
  it('types a composite column by its type name, a table row type by <name>_scalar', async () => {
    const r = await gql(fx.engine, '{ __type(name: "reading") { fields { name type { name kind } } } }');
    expect(r.data.__type.fields).toEqual([
      { name: 'id', type: { name: null, kind: 'NON_NULL' } },
      { name: 'value', type: { name: 'complex', kind: 'SCALAR' } },
      { name: 'who', type: { name: 'author_scalar', kind: 'SCALAR' } },
    ]);
  });

  it('inserts a value given in a variable of that type and returns it as the database writes it in JSON', async () => {
    const r = await gql(fx.engine, 'mutation ($v: complex) { insert_reading(objects: [{value: $v}]) { returning { id value } } }', { v: '(1.5,-2)' });
    expect(r).toEqual({ data: { insert_reading: { returning: [{ id: 1, value: { r: 1.5, i: -2 } }] } } });
  });
});
