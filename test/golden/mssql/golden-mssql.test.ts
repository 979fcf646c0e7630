/**
 * SQL Server golden cases: no SQL Server runs here, so each folder's GraphQL request is analysed
 * against the fixture (`fixture/metadata.json` resolved against the catalog that
 * `fixture/catalog-rows.json`, rows as SQL Server's catalog queries return them, maps to) and
 * every root field is translated by the mssql backend. The statements (and their parameter
 * sources) must equal `expected.sql`, and each must parse as T-SQL (node-sql-parser's
 * TransactSQL dialect). `SERVICE_GOLDEN_UPDATE=1` writes the expected files.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sqlParser from 'node-sql-parser';
import { describe, expect, it } from 'vitest';
import { RoleSchemas } from '../../../src/actors/schema-builder/role-schemas.js';
import { mssqlCatalog, type MssqlCatalogRows } from '../../../src/backends/mssql/introspect.js';
import { backendFor } from '../../../src/backends/registry.js';
import { analyze } from '../../../src/compiler/compile.js';
import { parseMetadataDocument } from '../../../src/metadata/document.js';
import { emptyMetadata } from '../../../src/metadata/types.js';
import type { MetadataSnapshot } from '../../../src/protocol/snapshot.js';

const ROOT = fileURLToPath(new URL('.', import.meta.url));
const UPDATE = process.env.SERVICE_GOLDEN_UPDATE === '1';
const readJson = (path: string): any => JSON.parse(readFileSync(path, 'utf8'));
const parser = new sqlParser.Parser();

const catalog = mssqlCatalog(readJson(join(ROOT, 'fixture/catalog-rows.json')) as MssqlCatalogRows);
const metadata = parseMetadataDocument(readJson(join(ROOT, 'fixture/metadata.json')), '$', emptyMetadata(), backendFor);
const snapshot: MetadataSnapshot = { version: 1, generation: 1, metadata, sources: { mssql: { kind: 'mssql', introspection: catalog, capabilities: backendFor('mssql')!.capabilities } }, inconsistencies: [] };
const schemas = new RoleSchemas();
schemas.use(1, () => snapshot);

/** Each root field's statement, as `-- <alias>`, the text, and `-- params: [...]`; or the translation error. */
function translate(dir: string): string {
  const query = readFileSync(join(dir, 'request.graphql'), 'utf8');
  const variables = existsSync(join(dir, 'variables.json')) ? readJson(join(dir, 'variables.json')) : {};
  const role = existsSync(join(dir, 'session.json')) ? String(readJson(join(dir, 'session.json'))['x-service-role']) : 'admin';
  let plan;
  try {
    plan = analyze(schemas.get(role, false), { query, operationName: null, variables }, { source: () => ({ kind: 'mssql', prepared: false }) });
  } catch (e) {
    return `-- request error: ${(e as Error).message}\n`;
  }
  const out: string[] = [];
  for (const step of plan.steps) {
    if (step.run.kind !== 'translate' || step.run.field.kind !== 'query') continue;
    const alias = step.output.kind === 'response' ? step.output.path.join('.') : String(step.id);
    try {
      const t = backendFor('mssql')!.translateRootField(step.run.field.root as never, { stringifyNumeric: false });
      out.push(`-- ${alias}`, t.text, `-- params: ${JSON.stringify(t.params)}`);
    } catch (e) {
      out.push(`-- ${alias}`, `-- error: ${(e as Error).message}`);
    }
  }
  return out.join('\n') + '\n';
}

const cases = readdirSync(ROOT, { withFileTypes: true }).filter((d) => d.isDirectory() && d.name !== 'fixture').map((d) => d.name).sort();

describe('SQL Server golden cases', () => {
  it('has cases, and the fixture resolves without inconsistencies', () => {
    expect(cases.length).toBeGreaterThan(0);
    expect(catalog.tables.map((t) => `${t.schema}.${t.name}`)).toEqual(['dbo.article', 'dbo.author', 'dbo.author_names', 'sales.order']);
  });

  for (const name of cases) {
    it(name, () => {
      const dir = join(ROOT, name);
      const actual = translate(dir);
      const expectedPath = join(dir, 'expected.sql');
      if (UPDATE) writeFileSync(expectedPath, actual);
      expect(actual).toBe(readFileSync(expectedPath, 'utf8'));
      for (const statement of actual.split('\n').filter((l) => l.startsWith('SELECT'))) {
        expect(() => parser.astify(statement, { database: 'TransactSQL' }), statement).not.toThrow();
      }
    });
  }
});
