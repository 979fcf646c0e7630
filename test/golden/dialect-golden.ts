/**
 * Golden cases of a backend whose server cannot run here (SQL Server, BigQuery): each case
 * folder's GraphQL request is analysed against the fixture (`fixture/metadata.json` resolved
 * against the given catalog) and every root field is translated by the backend. The statements
 * (and their parameter sources) must equal `expected.sql`, and each must parse in the dialect
 * of node-sql-parser named by `parserDatabase`; a remote schema's call is shown with them.
 * `SERVICE_GOLDEN_UPDATE=1` writes the expected files.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema, introspectionFromSchema } from 'graphql';
import sqlParser from 'node-sql-parser';
import { expect, it } from 'vitest';
import { RoleSchemas } from '../../src/actors/schema-builder/role-schemas.js';
import { backendFor, loadEveryBackend } from '../../src/backends/registry.js';
import { analyze } from '../../src/compiler/compile.js';
import type { DatabaseCatalog } from '../../src/metadata/catalog.js';
import { parseMetadataDocument } from '../../src/metadata/document.js';
import { emptyMetadata } from '../../src/metadata/types.js';
import type { MetadataSnapshot } from '../../src/protocol/snapshot.js';
import { parseForms } from './parse-forms.js';

// The backends a thread uses are loaded first (backends/registry.ts).
await loadEveryBackend();

export const readJson = (path: string): any => JSON.parse(readFileSync(path, 'utf8'));

/** The role schemas of the fixture (`fixture/metadata.json` over `catalog`), as the schema builder makes them. */
export function goldenSchemas(root: string, kind: string, catalog: DatabaseCatalog): RoleSchemas {
  const backend = backendFor(kind)!;
  const metadata = parseMetadataDocument(readJson(join(root, 'fixture/metadata.json')), '$', emptyMetadata(), backendFor);
  const source = metadata.sources[0]!.name;
  // Remote schemas as their servers would introspect: `fixture/remote-schemas/<name>.graphql`.
  const remoteDir = join(root, 'fixture/remote-schemas');
  const remotes = existsSync(remoteDir)
    ? Object.fromEntries(readdirSync(remoteDir).map((f) => [f.replace(/\.graphql$/, ''), introspectionFromSchema(buildSchema(readFileSync(join(remoteDir, f), 'utf8')))]))
    : {};
  const snapshot: MetadataSnapshot = { version: 1, generation: 1, metadata, sources: { [source]: { kind, introspection: catalog, capabilities: backend.capabilities } }, inconsistencies: [], remotes, remoteSchemaPermissions: false };
  const schemas = new RoleSchemas();
  schemas.use(1, () => snapshot);
  return schemas;
}

/** Each statement of a translated text: one a line (a SQL Server mutation's batch is several). */
const statementsOf = (actual: string): string[] => actual.split('\n').filter((l) => l !== '' && !l.startsWith('-- ')).map((l) => l.replace(/;$/, ''));

export function dialectGoldenCases(root: string, kind: string, catalog: DatabaseCatalog, parserDatabase: string): void {
  const backend = backendFor(kind)!;
  const schemas = goldenSchemas(root, kind, catalog);
  const parser = new sqlParser.Parser();

  /** Each root field's statement, as `-- <alias>`, the text, and `-- params: [...]`; or the error. */
  const translate = (dir: string): string => {
    const query = readFileSync(join(dir, 'request.graphql'), 'utf8');
    const variables = existsSync(join(dir, 'variables.json')) ? readJson(join(dir, 'variables.json')) : {};
    const role = existsSync(join(dir, 'session.json')) ? String(readJson(join(dir, 'session.json'))['x-service-role']) : 'admin';
    let plan;
    try {
      plan = analyze(schemas.get(role, false), { query, operationName: null, variables }, { source: () => ({ kind, prepared: false }) });
    } catch (e) {
      return `-- request error: ${(e as Error).message}\n`;
    }
    const out: string[] = [];
    for (const step of plan.steps) {
      const alias = step.output.kind === 'response' ? step.output.path.join('.') : String(step.id);
      // A remote schema's call (a remote relationship's join step): the query it sends.
      if (step.run.kind === 'remote') out.push(`-- ${alias} remote ${step.run.remote}: ${JSON.stringify(step.run.batch?.parts ?? step.run.query)}`);
      if (step.run.kind !== 'translate') continue;
      const options = { stringifyNumeric: false };
      try {
        const field = step.run.field;
        if (field.kind === 'mutation') {
          const t = backend.translateMutation(field.mutation, options);
          for (const op of t.ops) out.push(`-- ${alias}`, op.text, `-- params: ${JSON.stringify(op.params)}`);
          continue;
        }
        const live = plan.operation === 'subscription' && backend.translateLiveField ? backend.translateLiveField(field.root, options) : null;
        const t = live ?? backend.translateRootField(field.root, options);
        out.push(`-- ${alias}`, t.text, `-- params: ${JSON.stringify(t.params)}`);
        if (live) out.push(`-- ${alias} multiplexed`, live.multiplexed);
      } catch (e) {
        out.push(`-- ${alias}`, `-- error: ${(e as Error).message}`);
      }
    }
    return out.join('\n') + '\n';
  };

  // `events`: SQL Server's event trigger statements, a test of their own (mssql/events).
  const cases = readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory() && d.name !== 'fixture' && d.name !== 'events').map((d) => d.name).sort();
  it('has cases', () => expect(cases.length).toBeGreaterThan(0));
  for (const name of cases) {
    it(name, () => {
      const dir = join(root, name);
      const actual = translate(dir);
      const expectedPath = join(dir, 'expected.sql');
      if (process.env.SERVICE_GOLDEN_UPDATE === '1') writeFileSync(expectedPath, actual);
      expect(actual).toBe(readFileSync(expectedPath, 'utf8'));
      for (const statement of statementsOf(actual).flatMap((s) => parseForms(s, parserDatabase))) {
        expect(() => parser.astify(statement, { database: parserDatabase }), statement).not.toThrow();
      }
    });
  }
}
