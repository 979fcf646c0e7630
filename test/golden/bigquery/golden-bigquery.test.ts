/**
 * BigQuery golden cases (`../dialect-golden.ts`): the catalog is what `bigqueryCatalog` maps
 * `fixture/information-schema.json` to (rows as INFORMATION_SCHEMA returns them), and every
 * statement must parse as GoogleSQL (node-sql-parser's BigQuery dialect).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bigqueryCatalog } from '../../../src/backends/bigquery/introspect.js';
import { dialectGoldenCases, goldenSchemas, readJson } from '../dialect-golden.js';

const ROOT = fileURLToPath(new URL('.', import.meta.url));
const rows = readJson(join(ROOT, 'fixture/information-schema.json'));
const catalog = bigqueryCatalog(rows.tables, rows.columns);

describe('BigQuery golden cases', () => {
  it('maps the INFORMATION_SCHEMA rows: datasets as schemas, GoogleSQL types kept for casts', () => {
    expect(catalog.tables.map((t) => `${t.schema}.${t.name}:${t.kind}`)).toEqual(['shop.big_spenders:view', 'shop.customer:table', 'shop.purchase:table']);
    expect(catalog.tables[2]!.columns.map((c) => [c.name, c.type.name, c.type.display])).toEqual([
      ['id', 'int8', 'INT64'],
      ['customer_id', 'int8', 'INT64'],
      ['amount', 'numeric', 'NUMERIC(10, 2)'],
      ['at', 'timestamptz', 'TIMESTAMP'],
    ]);
  });
  dialectGoldenCases(ROOT, 'bigquery', catalog, 'BigQuery');
});

describe('BigQuery schema', () => {
  it('is read-only: no mutation or subscription root', () => {
    const { schema } = goldenSchemas(ROOT, 'bigquery', catalog).get('admin', false);
    expect(schema.getQueryType()).toBeTruthy();
    expect(schema.getMutationType()).toBeFalsy();
    expect(schema.getSubscriptionType()).toBeFalsy();
  });
});
