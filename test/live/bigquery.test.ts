/**
 * The live BigQuery suite: SERVICE_TEST_BIGQUERY_SERVICE_ACCOUNT is a service account's JSON
 * whose project holds a dataset the test may write to (SERVICE_TEST_BIGQUERY_DATASET, default
 * `service_test`; SERVICE_TEST_BIGQUERY_PROJECT, default the account's `project_id`); `npm test`
 * runs it only when that is set (vitest.config.ts). In addition to the golden tests
 * (test/golden/bigquery), which check every statement without BigQuery: here the same kinds of
 * requests run for real and their answers are compared. It creates and drops its own tables and
 * table function (`svc_*`) in the dataset.
 */
import { BigQuery } from '@google-cloud/bigquery';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';

const ACCOUNT = process.env.SERVICE_TEST_BIGQUERY_SERVICE_ACCOUNT ?? '';
if (!ACCOUNT) throw new Error('the live BigQuery suite needs SERVICE_TEST_BIGQUERY_SERVICE_ACCOUNT (see docs/backends.md)');
const credentials = JSON.parse(ACCOUNT) as { project_id?: string; client_email: string; private_key: string };
const PROJECT = process.env.SERVICE_TEST_BIGQUERY_PROJECT ?? credentials.project_id ?? '';
const DATASET = process.env.SERVICE_TEST_BIGQUERY_DATASET ?? 'service_test';

const bq = new BigQuery({ projectId: PROJECT, credentials });
const ddl = async (query: string) => void (await bq.query({ query, useLegacySql: false }));
const t = (name: string) => `\`${PROJECT}.${DATASET}.${name}\``;

describe('a live BigQuery source', () => {
  const fx = useEngine({ SERVICE_TEST_BIGQUERY_SERVICE_ACCOUNT: ACCOUNT });
  const meta = (type: string, args: Record<string, unknown>) => fx.engine.metadata({ type, args: { source: 'live', ...args } });
  const query = (q: string, headers: Record<string, string> = {}) => fx.engine.post('/v1/graphql', { query: q }, headers);
  const customer = { dataset: DATASET, name: 'svc_customer' };
  const purchase = { dataset: DATASET, name: 'svc_purchase' };
  const root = (name: string) => `${DATASET}_${name}`;

  beforeAll(async () => {
    await ddl(`CREATE OR REPLACE TABLE ${t('svc_customer')} AS SELECT * FROM UNNEST([STRUCT(1 AS id, 'Ann' AS name, 'FR' AS country), (2, 'Bo', 'JP'), (3, 'Cy', NULL)])`);
    await ddl(`CREATE OR REPLACE TABLE ${t('svc_purchase')} AS SELECT * FROM UNNEST([STRUCT(10 AS id, 1 AS customer_id, 120 AS amount), (11, 1, 30), (12, 2, 500)])`);
    await ddl(`CREATE OR REPLACE TABLE FUNCTION ${t('svc_purchases_above')}(customer INT64, minimum INT64) AS SELECT * FROM ${t('svc_purchase')} WHERE customer_id = customer AND amount > minimum`);
    const configuration = { service_account: { from_env: 'SERVICE_TEST_BIGQUERY_SERVICE_ACCOUNT' }, project_id: PROJECT, datasets: [DATASET] };
    const add = await fx.engine.metadata({ type: 'bigquery_add_source', args: { name: 'live', configuration } });
    expect(add.status, JSON.stringify(add.body)).toBe(200);
    for (const table of [customer, purchase]) expect((await meta('bigquery_track_table', { table })).status).toBe(200);
    const purchases = { manual_configuration: { remote_table: purchase, column_mapping: { id: 'customer_id' } } };
    expect((await meta('bigquery_create_array_relationship', { table: customer, name: 'purchases', using: purchases })).status).toBe(200);
    const buyer = { manual_configuration: { remote_table: customer, column_mapping: { customer_id: 'id' } } };
    expect((await meta('bigquery_create_object_relationship', { table: purchase, name: 'buyer', using: buyer })).status).toBe(200);
    const own = { columns: '*', filter: { id: { _eq: 'X-Service-User-Id' } } };
    expect((await meta('bigquery_create_select_permission', { table: customer, role: 'user', permission: own })).status).toBe(200);
    expect((await meta('bigquery_create_select_permission', { table: purchase, role: 'user', permission: { columns: ['id', 'amount'], filter: {} } })).status).toBe(200);
    const definition = { function: { dataset: DATASET, name: 'svc_purchases_above' }, argument_mapping: { customer: 'id' }, return_table: purchase };
    const computed = await meta('bigquery_add_computed_field', { table: customer, name: 'purchases_above', definition });
    expect(computed.status, JSON.stringify(computed.body)).toBe(200);
  });

  afterAll(async () => {
    await ddl(`DROP TABLE FUNCTION IF EXISTS ${t('svc_purchases_above')}`);
    await ddl(`DROP TABLE IF EXISTS ${t('svc_purchase')}`);
    await ddl(`DROP TABLE IF EXISTS ${t('svc_customer')}`);
  });

  it('answers selects with where, order, limit and relationships', async () => {
    const r = await query(`{ ${root('svc_customer')}(where: {id: {_lt: 3}}, order_by: {id: asc}, limit: 2) { name purchases(order_by: {id: asc}) { amount buyer { name } } } }`);
    expect(r.body).toEqual({ data: { [root('svc_customer')]: [{ name: 'Ann', purchases: [{ amount: 120, buyer: { name: 'Ann' } }, { amount: 30, buyer: { name: 'Ann' } }] }, { name: 'Bo', purchases: [{ amount: 500, buyer: { name: 'Bo' } }] }] } });
  });

  it('answers aggregates', async () => {
    const r = await query(`{ ${root('svc_purchase_aggregate')} { aggregate { count max { amount } } } }`);
    expect(r.body).toEqual({ data: { [root('svc_purchase_aggregate')]: { aggregate: { count: 3, max: { amount: 500 } } } } });
  });

  it('answers distinct_on in root fields, array relationships and aggregates (first row of each group in the order asked)', async () => {
    const byCustomer = `distinct_on: customer_id, order_by: [{customer_id: asc}, {amount: desc}]`;
    const r = await query(`{
      ${root('svc_purchase')}(${byCustomer}) { customer_id amount }
      ${root('svc_purchase_aggregate')}(${byCustomer}) { aggregate { count sum { amount } } }
      ${root('svc_customer')}(order_by: {id: asc}) { id purchases(distinct_on: customer_id, order_by: [{customer_id: asc}, {amount: asc}]) { amount } }
    }`);
    expect(r.body).toEqual({
      data: {
        [root('svc_purchase')]: [{ customer_id: 1, amount: 120 }, { customer_id: 2, amount: 500 }],
        [root('svc_purchase_aggregate')]: { aggregate: { count: 2, sum: { amount: 620 } } },
        [root('svc_customer')]: [{ id: 1, purchases: [{ amount: 30 }] }, { id: 2, purchases: [{ amount: 500 }] }, { id: 3, purchases: [] }],
      },
    });
    const wrong = await query(`{ ${root('svc_purchase')}(distinct_on: customer_id, order_by: {amount: desc}) { id } }`);
    expect(wrong.body).toEqual({ errors: [{ message: '"distinct_on" columns must match initial "order_by" columns', extensions: { path: `$.selectionSet.${root('svc_purchase')}.args`, code: 'validation-failed' } }] });
  });

  it('applies permissions with session variables, and computed fields calling a table function', async () => {
    const r = await query(`{ ${root('svc_customer')} { id purchases_above(args: {minimum: 50}) { id amount } } }`, { 'X-Service-Role': 'user', 'X-Service-User-Id': '1' });
    expect(r.body).toEqual({ data: { [root('svc_customer')]: [{ id: 1, purchases_above: [{ id: 10, amount: 120 }] }] } });
  });

  it('joins remote relationships both ways between BigQuery and PostgreSQL', async () => {
    await fx.db.sql("CREATE TABLE svc_note (id serial PRIMARY KEY, customer_id int NOT NULL, body text NOT NULL); INSERT INTO svc_note (customer_id, body) VALUES (1, 'first'), (1, 'again'), (3, 'hello');");
    const pg = (type: string, args: Record<string, unknown>) => fx.engine.metadata({ type, args });
    expect((await pg('pg_track_table', { table: 'svc_note' })).status).toBe(200);
    const notes = { to_source: { relationship_type: 'array', source: 'default', table: 'svc_note', field_mapping: { id: 'customer_id' } } };
    expect((await meta('bigquery_create_remote_relationship', { table: customer, name: 'notes', definition: notes })).status).toBe(200);
    const writer = { to_source: { relationship_type: 'object', source: 'live', table: customer, field_mapping: { customer_id: 'id' } } };
    expect((await pg('pg_create_remote_relationship', { table: 'svc_note', name: 'writer', definition: writer })).status).toBe(200);
    const r = await query(`{ ${root('svc_customer')}(order_by: {id: asc}) { name notes(order_by: {id: asc}) { body } } svc_note(order_by: {id: asc}) { body writer { name } } }`);
    expect(r.body).toEqual({
      data: {
        [root('svc_customer')]: [
          { name: 'Ann', notes: [{ body: 'first' }, { body: 'again' }] },
          { name: 'Bo', notes: [] },
          { name: 'Cy', notes: [{ body: 'hello' }] },
        ],
        svc_note: [
          { body: 'first', writer: { name: 'Ann' } },
          { body: 'again', writer: { name: 'Ann' } },
          { body: 'hello', writer: { name: 'Cy' } },
        ],
      },
    });
  });

  it('has no mutation or subscription root (read-only)', async () => {
    const r = await query('{ __schema { mutationType { name } subscriptionType { name } } }');
    expect(r.body).toEqual({ data: { __schema: { mutationType: null, subscriptionType: null } } });
  });
});
