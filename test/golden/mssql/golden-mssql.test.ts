/**
 * SQL Server golden cases (`../dialect-golden.ts`): the catalog is what `mssqlCatalog` maps
 * `fixture/catalog-rows.json` to (rows as SQL Server's catalog queries return them), and every
 * statement must parse as T-SQL (node-sql-parser's TransactSQL dialect).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mssqlCatalog, type MssqlCatalogRows } from '../../../src/backends/mssql/introspect.js';
import { dialectGoldenCases, readJson } from '../dialect-golden.js';

const ROOT = fileURLToPath(new URL('.', import.meta.url));
const catalog = mssqlCatalog(readJson(join(ROOT, 'fixture/catalog-rows.json')) as MssqlCatalogRows);

describe('SQL Server golden cases', () => {
  it('maps the catalog rows', () => {
    expect(catalog.tables.map((t) => `${t.schema}.${t.name}`)).toEqual(['dbo.article', 'dbo.author', 'dbo.author_names', 'sales.order']);
  });
  dialectGoldenCases(ROOT, 'mssql', catalog, 'TransactSQL');
});
