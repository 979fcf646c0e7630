import { beforeAll, describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';
import { gql, replaceTables } from '../support/graphql.js';

const fx = useEngine();

beforeAll(async () => {
  await fx.db.sql(`
    CREATE TABLE colour (value text PRIMARY KEY, comment text);
    INSERT INTO colour VALUES ('red', 'Red'), ('dark_blue', 'Dark blue');
    CREATE SCHEMA shop;
    CREATE TABLE shop.item_list (item_id serial PRIMARY KEY, item_name text NOT NULL, colour text REFERENCES colour(value));
    INSERT INTO shop.item_list (item_name, colour) VALUES ('pen', 'red'), ('cup', 'dark_blue');
  `);
});

describe('names and customization', () => {
  it('uses schema-prefixed identifiers, custom names, custom root fields and column names', async () => {
    await replaceTables(fx.engine, [
      { table: { schema: 'public', name: 'colour' }, is_enum: true },
      {
        table: { schema: 'shop', name: 'item_list' },
        configuration: { custom_root_fields: { select_by_pk: 'item' }, column_config: { item_name: { custom_name: 'label' } } },
      },
    ]);
    const r = await gql(fx.engine, '{ shop_item_list(order_by: {item_id: asc}) { label colour } item(item_id: 2) { label } }');
    expect(r).toEqual({ data: { shop_item_list: [{ label: 'pen', colour: 'red' }, { label: 'cup', colour: 'dark_blue' }], item: { label: 'cup' } } });
  });

  it('turns an enum table into a GraphQL enum used by referencing columns', async () => {
    const t = await gql(fx.engine, '{ __type(name: "colour_enum") { kind enumValues { name description } } }');
    expect(t.data.__type).toEqual({ kind: 'ENUM', enumValues: [{ name: 'dark_blue', description: 'Dark blue' }, { name: 'red', description: 'Red' }] });
    const r = await gql(fx.engine, '{ shop_item_list(where: {colour: {_eq: red}}) { label } }');
    expect(r.data.shop_item_list).toEqual([{ label: 'pen' }]);
  });

  it('applies the graphql-default naming convention and source prefixes', async () => {
    await replaceTables(
      fx.engine,
      [{ table: { schema: 'shop', name: 'item_list' }, configuration: { custom_name: 'item_list' } }],
      { source: { customization: { naming_convention: 'graphql-default', root_fields: { prefix: 'shop_' }, type_names: { prefix: 'S' } } } },
    );
    const r = await gql(fx.engine, '{ shop_ItemList(orderBy: {itemId: ASC}, limit: 1) { __typename itemName } shop_ItemListAggregate { aggregate { count } } }');
    expect(r).toEqual({ data: { shop_ItemList: [{ __typename: 'SItemList', itemName: 'pen' }], shop_ItemListAggregate: { aggregate: { count: 2 } } } });
  });

  it('puts a source under its namespace', async () => {
    await replaceTables(fx.engine, [{ table: { schema: 'shop', name: 'item_list' } }], { source: { customization: { root_fields: { namespace: 'store' } } } });
    const r = await gql(fx.engine, '{ store { shop_item_list_by_pk(item_id: 1) { item_name } } }');
    expect(r).toEqual({ data: { store: { shop_item_list_by_pk: { item_name: 'pen' } } } });
  });
  it('renaming a column keeps every permission, which names columns as the database does', async () => {
    await replaceTables(fx.engine, [
      { table: { schema: 'public', name: 'colour' } },
      {
        table: { schema: 'shop', name: 'item_list' },
        object_relationships: [{ name: 'shade', using: { foreign_key_constraint_on: 'colour' } }],
        select_permissions: [{ role: 'user', permission: { columns: ['item_name'], filter: { _and: [{ item_name: { _eq: 'pen' } }, { shade: { comment: { _eq: 'Red' } } }] } } }],
      },
    ], { source: { customization: {} } });
    const asUser = (query: string) => gql(fx.engine, query, undefined, { 'x-service-role': 'user' });
    const renamed = await fx.engine.metadata({
      type: 'bulk',
      args: [
        { type: 'pg_set_table_customization', args: { table: 'colour', configuration: { column_config: { comment: { custom_name: 'note' } } } } },
        { type: 'pg_set_table_customization', args: { table: { schema: 'shop', name: 'item_list' }, configuration: { column_config: { item_name: { custom_name: 'title' } } } } },
      ],
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(await asUser('{ shop_item_list { title } }')).toEqual({ data: { shop_item_list: [{ title: 'pen' }] } });
    const again = await fx.engine.metadata({ type: 'pg_set_table_customization', args: { table: { schema: 'shop', name: 'item_list' }, configuration: { column_config: { item_name: { custom_name: 'label' } } } } });
    expect(again.status).toBe(200);
    expect(await asUser('{ shop_item_list { label } }')).toEqual({ data: { shop_item_list: [{ label: 'pen' }] } });
  });
});
