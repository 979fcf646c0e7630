/**
 * The PostgreSQL golden cases (every folder beside this file but `fixture`, `mssql` and
 * `bigquery`) and their SQL as `/v1/graphql/explain` reports it: from an engine
 * (`golden.test.ts`), or in this process (`golden-sql.test.ts`), the engine's explain code over
 * the request compiled as the engine compiles it (`dialect-golden.ts`) against the catalog
 * captured from the fixture database: `fixture/introspection.json`, the introspection query's
 * answer, and `fixture/enum-values.json`, the rows of each source's enum tables.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kind, parse, type OperationDefinitionNode } from 'graphql';
import type pg from 'pg';
import { SnapshotBus } from '../../src/actors/snapshot-bus.js';
import type { EnumValues } from '../../src/backends/faces/admin.js';
import type { SourceConnection } from '../../src/backends/faces/runtime.js';
import { loadEnumValues } from '../../src/backends/pg/enum-values.js';
import { pgCatalog, readPgIntrospection, type PgIntrospection } from '../../src/backends/pg/introspect.js';
import { backendFor } from '../../src/backends/registry.js';
import { explainRequest } from '../../src/graphql/explain.js';
import { PlanLookup } from '../../src/graphql/plan-lookup.js';
import { EVERYTHING } from '../../src/metadata/changes.js';
import type { PublishedSnapshot } from '../../src/protocol/snapshot.js';
import { caseNames, caseRequest, goldenCompiler, readJson, type GoldenRequest } from './dialect-golden.js';

export const ROOT = fileURLToPath(new URL('.', import.meta.url));
const INTROSPECTION = join(ROOT, 'fixture/introspection.json');
const ENUM_VALUES = join(ROOT, 'fixture/enum-values.json');

export interface GoldenCase extends GoldenRequest {
  name: string;
  dir: string;
  operation: 'query' | 'mutation' | 'subscription';
}

/** A request that does not parse is a query case (its expected answer is the engine's syntax error). */
function operationOf(query: string): GoldenCase['operation'] {
  try {
    const op = parse(query).definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION) as OperationDefinitionNode | undefined;
    return op?.operation ?? 'query';
  } catch {
    return 'query';
  }
}

export const cases: GoldenCase[] = caseNames(ROOT, ['mssql', 'bigquery']).map((name) => {
  const request = caseRequest(join(ROOT, name));
  return { name, dir: join(ROOT, name), ...request, operation: operationOf(request.query) };
});

/** The fixture database's catalog as the engine reads it: the introspection query's answer, and each source's enum table rows. */
export interface CapturedCatalog {
  introspection: PgIntrospection;
  enumValues: Record<string, EnumValues>;
}

/** The captured catalog of the fixture database (`fixture/`). */
export const storedCatalog = (): CapturedCatalog => ({ introspection: readJson(INTROSPECTION), enumValues: readJson(ENUM_VALUES) });

/** Reads the catalog of the fixture database, as the engine does for each source of `metadata` (the metadata document). */
export async function captureCatalog(pool: pg.Pool, metadata: { sources: { name: string; tables: { table: { schema: string; name: string }; is_enum?: boolean }[] }[] }): Promise<CapturedCatalog> {
  const introspection = await readPgIntrospection(pool);
  const catalog = pgCatalog(introspection);
  const enumValues: Record<string, EnumValues> = {};
  for (const s of metadata.sources) {
    const enumTables = s.tables.filter((t) => t.is_enum).map((t) => t.table);
    enumValues[s.name] = enumTables.length ? await loadEnumValues(pool, catalog, enumTables) : {};
  }
  return { introspection, enumValues };
}

/**
 * The catalog without what differs between two databases made alike: object ids, the server's
 * version, its base types and the extensions' C functions (they come with the server's and the
 * extensions' versions, not with the fixture; no golden statement depends on them).
 */
export function comparable(c: CapturedCatalog): unknown {
  const functions = c.introspection.functions.filter((f) => f.language !== 'c');
  return JSON.parse(JSON.stringify({ ...c, introspection: { ...c.introspection, functions } }, (k, v) => (k === 'oid' || k === 'serverVersion' || k === 'baseTypes' ? undefined : v)));
}

/** The body of a case's `/v1/graphql/explain` request. */
export const explainBody = (c: GoldenRequest) => ({ query: { query: c.query, variables: c.variables }, user: c.session });

/** An answer of `/v1/graphql/explain` as `expected.sql` shows it (before its layout, `format-sql.ts`). */
export interface ExplainAnswer {
  status: number;
  body: any;
}

/**
 * Explain's SQL per root field (`-- <field>` then the statement), or its error (an invalid
 * request is not explainable). A subscription's: its multiplexed statement, after the cohort
 * values it is explained with.
 */
export function explainedText(r: ExplainAnswer): string {
  if (r.status !== 200) return `-- explain refused (${r.status}): ${JSON.stringify(r.body)}\n`;
  if (!Array.isArray(r.body)) return `-- variables: ${JSON.stringify(r.body.variables)}\n${r.body.sql};\n`;
  return (r.body as { field: string; sql: string }[]).map((f) => `-- ${f.field}\n${f.sql};\n`).join('\n');
}

/**
 * `/v1/graphql/explain` in this process: the engine's explain code, its plans compiled by
 * `goldenCompiler` over `catalog`; the database's plans are left empty (no database here).
 */
export function engineFreeExplain(catalog: CapturedCatalog): (c: GoldenRequest) => Promise<ExplainAnswer> {
  const snapshots = new SnapshotBus();
  const plans = new PlanLookup(goldenCompiler(ROOT, pgCatalog(catalog.introspection), catalog.enumValues), snapshots, 1000, false, 1000);
  // The plans' cache and compiles need a snapshot published; the compiler has its own (the fixture's).
  snapshots.publish({ changes: EVERYTHING } as PublishedSnapshot);
  const noDatabase = { explain: async () => [] } as unknown as SourceConnection;
  const connections = { get: () => ({ backend: backendFor('postgres')!, connection: noDatabase }) };
  return async (c) => {
    const r = await explainRequest(new TextEncoder().encode(JSON.stringify(explainBody(c))), plans, connections);
    return { status: r.status, body: JSON.parse(r.body) };
  };
}
