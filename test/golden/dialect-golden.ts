/**
 * The golden cases' SQL without an engine, for every backend (PostgreSQL: `golden-sql.test.ts`;
 * SQL Server, BigQuery, whose servers cannot run here: `mssql/`, `bigquery/`). A case folder's
 * request is compiled as the engine compiles it, in this process: analysed for the session's
 * role against the fixture (`fixture/metadata.json` resolved over a catalog, as the schema
 * builder's thread does), then each field translated by its source's backend (as a compiler
 * thread does). What a backend's cases show of the plan (PostgreSQL: explain's report; the
 * others: every statement with its parameter sources) must equal `expected.sql`, compared and
 * written one clause per line (`format-sql.ts`). `SERVICE_GOLDEN_UPDATE=1` writes the expected
 * files.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema, introspectionFromSchema } from 'graphql';
import sqlParser from 'node-sql-parser';
import { expect, it } from 'vitest';
import { analyzeRequest } from '../../src/actors/schema-builder/analyze-request.js';
import { RoleSchemas } from '../../src/actors/schema-builder/role-schemas.js';
import { translateField, translatePlan } from '../../src/compiler/translation.js';
import type { EnumValues } from '../../src/backends/faces/admin.js';
import { backendFor, loadEveryBackend } from '../../src/backends/registry.js';
import type { DatabaseCatalog } from '../../src/catalog/types.js';
import { parseMetadataDocument } from '../../src/metadata/document.js';
import { emptyMetadata } from '../../src/metadata/types.js';
import type { AnalyzeRequest, CompileAnswer } from '../../src/protocol/messages.js';
import type { Plan } from '../../src/protocol/plan.js';
import type { MetadataSnapshot } from '../../src/protocol/snapshot.js';
import { formatSql, type SqlDialect } from './format-sql.js';
import { parseForms } from './parse-forms.js';

// The backends a thread uses are loaded first (backends/registry.ts).
await loadEveryBackend();

export const UPDATE = process.env.SERVICE_GOLDEN_UPDATE === '1';
export const readJson = (path: string): any => JSON.parse(readFileSync(path, 'utf8'));
const optionalJson = (path: string): any => (existsSync(path) ? readJson(path) : undefined);

/** A case folder's request: `request.graphql`, `variables.json`, `session.json` (headers; absent: admin). */
export interface GoldenRequest {
  query: string;
  variables: Record<string, unknown> | undefined;
  session: Record<string, string>;
}

export function caseRequest(dir: string): GoldenRequest {
  return { query: readFileSync(join(dir, 'request.graphql'), 'utf8'), variables: optionalJson(join(dir, 'variables.json')), session: optionalJson(join(dir, 'session.json')) ?? {} };
}

/** The case folders beside a backend's test, in name order: every folder but `fixture` and `except`. */
export function caseNames(root: string, except: string[] = []): string[] {
  return readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== 'fixture' && !except.includes(d.name))
    .map((d) => d.name)
    .sort((a, b) => a.localeCompare(b));
}

/**
 * The snapshot the metadata actor would publish for the fixture: every source over `catalog`
 * (the fixtures' sources share one database), with its backend's capabilities and the rows of
 * its enum tables (`enumValues`, by source name).
 */
function goldenSnapshot(root: string, catalog: DatabaseCatalog, enumValues: Record<string, EnumValues>): MetadataSnapshot {
  const metadata = parseMetadataDocument(readJson(join(root, 'fixture/metadata.json')), '$', emptyMetadata(), backendFor);
  const sources = Object.fromEntries(
    metadata.sources.map((s) => [s.name, { kind: s.kind, introspection: catalog, enumValues: enumValues[s.name] ?? {}, capabilities: backendFor(s.kind)!.capabilities, defaultSchema: backendFor(s.kind)!.profile.defaultSchema }]),
  );
  // Remote schemas as their servers would introspect: `fixture/remote-schemas/<name>.graphql`.
  const remoteDir = join(root, 'fixture/remote-schemas');
  const remotes = existsSync(remoteDir)
    ? Object.fromEntries(readdirSync(remoteDir).map((f) => [f.replace(/\.graphql$/, ''), introspectionFromSchema(buildSchema(readFileSync(join(remoteDir, f), 'utf8')))]))
    : {};
  return { version: 1, generation: 1, metadata, sources, inconsistencies: [], remotes, remoteSchemaPermissions: false };
}

/** The role schemas of the fixture (`fixture/metadata.json` over `catalog`), as the schema builder makes them. */
export function goldenSchemas(root: string, catalog: DatabaseCatalog, enumValues: Record<string, EnumValues> = {}): RoleSchemas {
  return fixtureSchemas(goldenSnapshot(root, catalog, enumValues));
}

function fixtureSchemas(snapshot: MetadataSnapshot): RoleSchemas {
  const schemas = new RoleSchemas();
  schemas.use(1, () => snapshot);
  return schemas;
}

/**
 * What compiles requests over the fixture, in this process, as the engine's schema builder
 * does: the request analysed for its role (its errors as the thread answers them), then its
 * fields translated, the session variables they read gathered.
 */
export function goldenCompiler(root: string, catalog: DatabaseCatalog, enumValues: Record<string, EnumValues> = {}) {
  const snapshot = goldenSnapshot(root, catalog, enumValues);
  const schemas = fixtureSchemas(snapshot);
  return {
    async compile(_published: unknown, req: AnalyzeRequest): Promise<CompileAnswer> {
      const analysed = analyzeRequest(schemas, req, snapshot);
      if (!analysed.ok) return analysed;
      return { ok: true, plan: await translatePlan(analysed.plan, (task) => translateField(backendFor(task.sourceKind)!, task, { stringifyNumeric: false })) };
    },
  };
}

/**
 * One test per case folder: `sqlOf` (one statement a line) laid out one clause per line must
 * equal the case's `expected.sql` (written instead when updating); `check` then reads the
 * statements as written.
 */
export function goldenSqlCases(root: string, names: string[], dialect: SqlDialect, sqlOf: (name: string) => Promise<string>, check?: (sql: string) => void): void {
  it('has cases', () => expect(names.length).toBeGreaterThan(0));
  for (const name of names) {
    it(name, async () => {
      const sql = await sqlOf(name);
      const actual = formatSql(sql, dialect);
      const path = join(root, name, 'expected.sql');
      if (UPDATE) writeFileSync(path, actual);
      expect(existsSync(path), `${name}/expected.sql is missing (run with SERVICE_GOLDEN_UPDATE=1)`).toBe(true);
      expect(actual).toBe(readFileSync(path, 'utf8'));
      check?.(sql);
    });
  }
}

/** A plan's statements: each field's (`-- <alias>`, the text, `-- params: [...]`), and a remote schema's call (the query it sends). */
function statementsShown(plan: Plan): string {
  const out: string[] = [];
  for (const step of plan.steps) {
    const alias = step.output.kind === 'response' ? step.output.path.join('.') : String(step.id);
    const run = step.run;
    if (run.kind === 'remote') out.push(`-- ${alias} remote ${run.remote}: ${JSON.stringify(run.batch?.parts ?? run.query)}`);
    for (const op of run.kind === 'mutation' ? run.ops : run.kind === 'sql' ? [run] : []) out.push(`-- ${alias}`, op.text, `-- params: ${JSON.stringify(op.params)}`);
    if (run.kind === 'sql' && run.multiplexed) out.push(`-- ${alias} multiplexed`, run.multiplexed.text);
  }
  return out.join('\n') + '\n';
}

/** Each statement of a plan's text: one a line (a SQL Server mutation's batch is several). */
const statementsOf = (text: string): string[] => text.split('\n').filter((l) => l !== '' && !l.startsWith('-- ')).map((l) => l.replace(/;$/, ''));

/**
 * The cases of a backend whose server cannot run here: its statements, each of which must parse
 * in the dialect of node-sql-parser named by `parserDatabase`; a request the engine refuses, its
 * error. (`events`: SQL Server's event trigger statements, a test of their own.)
 */
export function dialectGoldenCases(root: string, kind: 'mssql' | 'bigquery', catalog: DatabaseCatalog, parserDatabase: string): void {
  const compiler = goldenCompiler(root, catalog);
  const parser = new sqlParser.Parser();
  const sqlOf = async (name: string): Promise<string> => {
    const { query, variables, session } = caseRequest(join(root, name));
    const req = { role: session['x-service-role'] ?? 'admin', backendOnly: false, query, operationName: null, variables: variables ?? {}, allowlist: false };
    let answer;
    try {
      answer = await compiler.compile(null, req);
    } catch (e) {
      return `-- error: ${(e as Error).message}\n`;
    }
    return answer.ok ? statementsShown(answer.plan) : `-- request error: ${answer.errors[0]!.message}\n`;
  };
  const parses = (sql: string) => {
    for (const statement of statementsOf(sql).flatMap((s) => parseForms(s, parserDatabase))) {
      expect(() => parser.astify(statement, { database: parserDatabase }), statement).not.toThrow();
    }
  };
  goldenSqlCases(root, caseNames(root, ['events']), kind, sqlOf, parses);
}
