/**
 * BigQuery golden cases (`../dialect-golden.ts`): the catalog is what `bigqueryCatalog` maps
 * `fixture/information-schema.json` to (rows as INFORMATION_SCHEMA returns them), and every
 * statement must parse as GoogleSQL (node-sql-parser's BigQuery dialect).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bigqueryCatalog } from '../../../src/backends/bigquery/introspect.js';
import type { GraphQLEnumType, GraphQLObjectType } from 'graphql';
import { resolveComputedField } from '../../../src/metadata/computed-fields.js';
import type { JsonObject } from '../../../src/util/decode.js';
import { dialectGoldenCases, goldenSchemas, readJson } from '../dialect-golden.js';

const ROOT = fileURLToPath(new URL('.', import.meta.url));
const rows = readJson(join(ROOT, 'fixture/information-schema.json'));
const catalog = bigqueryCatalog(rows.tables, rows.columns, rows.routines, rows.parameters);

describe('BigQuery golden cases', () => {
  it('maps the INFORMATION_SCHEMA rows: datasets as schemas, GoogleSQL types kept for casts, with their GraphQL scalars', () => {
    expect(catalog.tables.map((t) => `${t.schema}.${t.name}:${t.kind}`)).toEqual(['shop.big_spenders:view', 'shop.customer:table', 'shop.purchase:table']);
    expect(catalog.tables[2]!.columns.map((c) => [c.name, c.type.name, c.type.display, c.type.traits.scalar])).toEqual([
      ['id', 'INT64', 'INT64', 'bigint'],
      ['customer_id', 'INT64', 'INT64', 'bigint'],
      ['amount', 'NUMERIC', 'NUMERIC(10, 2)', 'numeric'],
      ['at', 'TIMESTAMP', 'TIMESTAMP', 'timestamp'],
    ]);
  });
  dialectGoldenCases(ROOT, 'bigquery', catalog, 'BigQuery');
});

describe('BigQuery computed fields (argument_mapping, return_table)', () => {
  const definition = { function: { dataset: 'shop', name: 'purchases_above' }, argument_mapping: { customer: 'id' }, return_table: { dataset: 'shop', name: 'purchase' } };
  const scope = { table: { schema: 'shop', name: 'customer' }, catalog, isTracked: (t: { schema: string; name: string }) => t.name !== 'big_spenders' };
  const resolve = (d: object) => resolveComputedField({ name: 'big_purchases', definition: d as JsonObject }, scope);

  it('maps columns to the table function\'s arguments; the others are the field\'s args', () => {
    const cf = resolve(definition);
    expect(cf.columnArguments).toEqual([[0, 'id']]);
    expect(cf.inputArguments.map((a) => a.name)).toEqual(['minimum']);
    expect(cf.returns).toEqual({ kind: 'table', table: { schema: 'shop', name: 'purchase' } });
    const { schema } = goldenSchemas(ROOT, catalog).get('admin', false);
    const field = (schema.getType('shop_customer') as GraphQLObjectType).getFields().big_purchases!;
    expect(field.args.map((a) => a.name)).toEqual(['args', 'distinct_on', 'limit', 'offset', 'order_by', 'where']);
    expect(field.description).toBe('purchases above a minimum');
  });

  it('refuses what does not fit, with the reasons', () => {
    expect(() => resolve({ ...definition, argument_mapping: { nope: 'id' } })).toThrow('"nope" is not an input argument of the function');
    expect(() => resolve({ ...definition, argument_mapping: { customer: 'nope' } })).toThrow('"nope" is not a column of table');
    expect(() => resolve({ ...definition, return_table: { dataset: 'shop', name: 'big_spenders' } })).toThrow('is not tracked or not found');
    expect(() => resolve({ ...definition, function: { dataset: 'shop', name: 'tax' } })).toThrow('is not a table-valued function');
    expect(() => resolve({ ...definition, function: { dataset: 'shop', name: 'missing' } })).toThrow('no such function exists');
  });
});

describe('BigQuery schema', () => {
  it('is read-only: no mutation or subscription root', () => {
    const { schema } = goldenSchemas(ROOT, catalog).get('admin', false);
    expect(schema.getQueryType()).toBeTruthy();
    expect(schema.getMutationType()).toBeFalsy();
    expect(schema.getSubscriptionType()).toBeFalsy();
  });

  it('has distinct_on on every list of rows, a list of the table\'s <t>_select_column', () => {
    const { schema } = goldenSchemas(ROOT, catalog).get('admin', false);
    const root = schema.getQueryType()!.getFields();
    const customer = (schema.getType('shop_customer') as GraphQLObjectType).getFields();
    const lists = { shop_purchase: root.shop_purchase, shop_purchase_aggregate: root.shop_purchase_aggregate, purchases: customer.purchases, purchases_aggregate: customer.purchases_aggregate };
    for (const [name, field] of Object.entries(lists)) {
      expect(field?.args.map((a) => a.name), name).toEqual(['distinct_on', 'limit', 'offset', 'order_by', 'where']);
      expect(String(field?.args[0]!.type), name).toBe('[shop_purchase_select_column!]');
    }
    const columns = schema.getType('shop_purchase_select_column') as GraphQLEnumType;
    expect(columns.getValues().map((v) => v.name)).toEqual(['id', 'customer_id', 'amount', 'at']);
  });

  it('has remote relationships as fields: to a table (to_source) and to a remote schema', () => {
    const { schema } = goldenSchemas(ROOT, catalog).get('admin', false);
    const fields = (schema.getType('shop_customer') as GraphQLObjectType).getFields();
    expect(String(fields.orders?.type)).toBe('[shop_purchase!]!');
    expect(fields.orders?.args.map((a) => a.name)).toEqual(['distinct_on', 'limit', 'offset', 'order_by', 'where']);
    expect(String(fields.shipments?.type)).toBe('[Shipment!]');
    expect(fields.shipments?.args.map((a) => a.name)).toEqual(['limit']);
  });
});
