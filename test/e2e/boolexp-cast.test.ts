/** `_cast` in boolean expressions (GraphQL `where`, permissions, the deprecated `select`'s `$cast`), as the well-known engine casts. */
import { beforeAll, describe, expect, it } from 'vitest';
import { postgisDatabase } from '../support/db.js';
import { useEngine } from '../support/fixture.js';
import { gql } from '../support/graphql.js';

const fx = useEngine({}, [], postgisDatabase);

const near = { type: 'Point', coordinates: [2, 2] };

beforeAll(async () => {
  await fx.db.sql(`
    CREATE TABLE place (id int PRIMARY KEY, name text NOT NULL, spot geometry, area geography, tags jsonb);
    INSERT INTO place VALUES
      (1, 'near', 'SRID=4326;POINT(1 1)', 'SRID=4326;POINT(1 1)', '{"kind": "latest"}'),
      (2, 'far', 'SRID=4326;POINT(60 60)', 'SRID=4326;POINT(60 60)', '{"kind": "old"}');
  `);
  const r = await fx.engine.metadata({
    type: 'bulk',
    args: [
      { type: 'pg_track_table', args: { table: 'place' } },
      {
        type: 'pg_create_select_permission',
        args: { table: 'place', role: 'user', permission: { columns: ['id', 'name'], filter: { spot: { _cast: { geography: { _st_d_within: { distance: 1000000, from: near } } } } } } },
      },
    ],
  });
  expect(r.status).toBe(200);
});

describe('_cast', () => {
  it('compares geometry as geography, geography as geometry and jsonb as text in a where', async () => {
    const r = await gql(
      fx.engine,
      `query ($from: geography) {
        a: place(where: {spot: {_cast: {geography: {_st_d_within: {distance: 1000000, from: $from}}}}}) { name }
        b: place(where: {area: {_cast: {geometry: {_st_within: {type: "Polygon", coordinates: [[[0, 0], [0, 3], [3, 3], [3, 0], [0, 0]]]}}}}}) { name }
        c: place(where: {tags: {_cast: {String: {_like: "%latest%"}}}}) { name }
      }`,
      { from: near },
    );
    expect(r).toEqual({ data: { a: [{ name: 'near' }], b: [{ name: 'near' }], c: [{ name: 'near' }] } });
  });

  it('names the cast input types as the well-known engine does', async () => {
    const r = await gql(fx.engine, '{ g: __type(name: "geometry_cast_exp") { inputFields { name type { name } } } j: __type(name: "jsonb_cast_exp") { inputFields { name type { name } } } }');
    expect(r.data).toEqual({
      g: { inputFields: [{ name: 'geography', type: { name: 'geography_comparison_exp' } }] },
      j: { inputFields: [{ name: 'String', type: { name: 'String_comparison_exp' } }] },
    });
  });

  it('applies in a permission filter', async () => {
    const r = await gql(fx.engine, '{ place { id name } }', undefined, { 'x-service-role': 'user' });
    expect(r).toEqual({ data: { place: [{ id: 1, name: 'near' }] } });
  });

  it('is $cast in the deprecated select', async () => {
    const r = await fx.engine.query({ type: 'select', args: { table: 'place', columns: ['id'], where: { tags: { $cast: { text: { $like: '%latest%' } } } } } });
    expect(r).toEqual({ status: 200, body: [{ id: 1 }] });
  });

  it('refuses a cast the well-known engine does not make, storing nothing', async () => {
    const r = await fx.engine.metadata({
      type: 'pg_create_select_permission',
      args: { table: 'place', role: 'other', permission: { columns: ['id'], filter: { tags: { _cast: { int4: { _eq: 1 } } } } } },
    });
    expect(r).toEqual({
      status: 400,
      body: { path: '$.args', error: 'cannot cast column of type "jsonb" to type "int4"', code: 'unexpected-payload' },
    });
    const exported = (await fx.engine.metadata({ type: 'export_metadata', args: {} })).body;
    expect(exported.sources[0].tables[0].select_permissions.map((p: any) => p.role)).toEqual(['user']);
  });
});
