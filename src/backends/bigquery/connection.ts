/**
 * A bigquery source's clients (`@google-cloud/bigquery`): the front thread's runs one query
 * per root field (named parameters, all STRING: the statement casts them); the metadata
 * actor's introspects the datasets. Nothing connects until a query runs: introspection is the
 * first, so bad credentials or an unreachable API make the source inconsistent with its reason.
 */
import type { BigQuery } from '@google-cloud/bigquery';
import type { JsonObject } from '../../util/decode.js';
import type { AdminConnection, AdminTransaction } from '../faces/admin.js';
import type { RunStatement, SourceConnection } from '../faces/runtime.js';
import { render, type Sql } from '../../sql/fragment.js';
import { bigqueryTarget } from './configuration.js';
import { BIGQUERY_DIALECT } from './dialect.js';
import { introspectBigQuery, type Row } from './introspect.js';
import { notSupported } from './translate/context.js';

/**
 * The client, its settings read now (a missing variable fails the source at once); the driver
 * is loaded when first needed, so threads that never meet a BigQuery source do not pay for it.
 */
function client(configuration: JsonObject): Promise<BigQuery> {
  const target = bigqueryTarget(configuration);
  return import('@google-cloud/bigquery').then(({ BigQuery }) => new BigQuery({ projectId: target.projectId, credentials: target.credentials, retryOptions: { maxRetries: 0 } }));
}

async function run(client: Promise<BigQuery>, text: string, values: readonly unknown[]): Promise<Row[]> {
  const bq = await client;
  const params = Object.fromEntries(values.map((v, i) => [`p${i + 1}`, v === null || v === undefined ? null : String(v)]));
  const types = Object.fromEntries(values.map((_, i) => [`p${i + 1}`, 'STRING']));
  const [rows] = await bq.query({ query: text, params, types, useLegacySql: false });
  return rows as Row[];
}

export class BigQuerySourceConnection implements SourceConnection {
  private readonly bq: Promise<BigQuery>;

  constructor(configuration: JsonObject) {
    this.bq = client(configuration);
  }

  async json(text: string, values: unknown[]): Promise<string> {
    const root = (await run(this.bq, text, values))[0]?.root;
    return root === null || root === undefined ? 'null' : String(root);
  }

  rows: RunStatement = async (text, values) => (await run(this.bq, text, values)).map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v === null ? null : String(v)])));

  transaction<T>(): Promise<T> {
    return Promise.reject(notSupported('mutations'));
  }

  explain(): Promise<string[]> {
    return Promise.reject(notSupported('explain'));
  }

  async close(): Promise<void> {}
}

export class BigQueryAdminConnection implements AdminConnection {
  private readonly bq: Promise<BigQuery>;
  private readonly datasets: string[];

  constructor(configuration: JsonObject) {
    this.bq = client(configuration);
    this.datasets = bigqueryTarget(configuration).datasets;
  }

  introspect() {
    return introspectBigQuery(this.datasets, (statement: Sql) => {
      const r = render(statement, BIGQUERY_DIALECT);
      return run(this.bq, r.text, []);
    });
  }

  async loadEnumValues() {
    return {};
  }

  begin(): Promise<AdminTransaction> {
    return Promise.reject(notSupported('run_sql and the data operations of /v2/query'));
  }

  async close(): Promise<void> {}
}
