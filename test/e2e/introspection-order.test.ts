/** Introspection lists come sorted by name, as the well-known engine answers them (graphql-js keeps the declared order). */
import { beforeAll, describe, expect, it } from 'vitest';
import { getIntrospectionQuery } from 'graphql';
import { useEngine } from '../support/fixture.js';
import { gql } from '../support/graphql.js';

const fx = useEngine();

beforeAll(async () => {
  await fx.db.sql('CREATE TABLE item (zeta int PRIMARY KEY, alpha text, mid jsonb)');
  expect((await fx.engine.metadata({ type: 'pg_track_table', args: { table: 'item' } })).status).toBe(200);
});

const names = (list: { name: string }[] | null) => (list ?? []).map((x) => x.name);
const sorted = (list: string[]) => [...list].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

describe('introspection order', () => {
  it('lists __TypeKind values alphabetically, whatever the selection holds', async () => {
    const r = await gql(fx.engine, 'query ($d: Boolean!) { __type(name: "__TypeKind") { enumValues(includeDeprecated: $d) { name } } t: __type(name: "__TypeKind") { enumValues { description } } }', { d: true });
    expect(names(r.data.__type.enumValues)).toEqual(['ENUM', 'INPUT_OBJECT', 'INTERFACE', 'LIST', 'NON_NULL', 'OBJECT', 'SCALAR', 'UNION']);
    expect(r.data.t.enumValues[0]).toEqual({ description: 'Indicates this type is an enum. `enumValues` is a valid field.' });
  });

  it('sorts types, fields, arguments, input fields and enum values of the whole schema, through fragments', async () => {
    const r = await gql(fx.engine, getIntrospectionQuery());
    const s = r.data.__schema;
    expect(names(s.types)).toEqual(sorted(names(s.types)));
    for (const t of s.types) {
      for (const list of [t.fields, t.inputFields, t.enumValues, t.interfaces, t.possibleTypes, ...(t.fields ?? []).map((f: any) => f.args)]) {
        expect(names(list)).toEqual(sorted(names(list)));
      }
    }
    const select = s.types.find((t: any) => t.name === 'item_select_column');
    expect(names(select.enumValues)).toEqual(['alpha', 'mid', 'zeta']);
    expect(JSON.stringify(r)).not.toContain('__service_sort_name');
  });
});
