/**
 * The admin GraphQL schema's part of resolution (`AdminSchemaChecks`, metadata/resolve.ts stages
 * 9-13), built here because metadata/ builds no schema: the names of the sources' admin schema
 * (which remote schemas and actions must not take), each object's root fields (no two may
 * define one), and the queries of the collections on the
 * allow-list or behind a REST endpoint validated against the admin schema as a client sees it
 * (spec "Query collection, allow-list, RESTified endpoint": an invalid query is an inconsistent
 * object). Collections that nothing uses are only parsed, as in the well-known engine. One
 * instance per metadata actor: it keeps the sources' schema while the sources and catalogs are
 * the same objects, and the collections' verdict while the document's sources, remote schemas
 * and actions, the catalogs, the remotes' introspections and the two sections are.
 */
import { isScalarType, Kind, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import type { ResolvedMetadata, Inconsistency, SourceCatalog } from '../metadata/resolve/types.js';
import { allowlist, collectionQueryObjectName, queryCollections, setQueryCollections, type QueryCollection } from '../metadata/query-collections.js';
import { restEndpoints } from '../metadata/rest-endpoints.js';
import type { Metadata } from '../metadata/types.js';
import type { AdminSchemaChecks, Served } from '../metadata/resolve.js';
import type { SchemaNames } from '../metadata/resolve/actions.js';
import type { ResolveMemo } from '../metadata/resolve/memo.js';
import type { MetadataSnapshot } from '../protocol/snapshot.js';
import { buildRoleSchema, type RoleSchema } from '../schema/build.js';
import { buildRoleModel } from '../schema/role-models.js';
import { RemoteSchemas } from '../schema/remote-schemas.js';
import { roleSchemaInputs } from '../schema/role-schema.js';
import { SharedTypes } from '../schema/shared-types.js';
import { TrackedTables } from '../schema/tracked-tables.js';
import { actionClaims, RootFieldNames } from '../schema/root-field-names.js';
import type { RootFieldClaim } from '../metadata/resolve/root-fields.js';
import type { ActionMetadata } from '../metadata/actions.js';
import { validationError } from './validate-document.js';
import { parseDocument } from './document-limits.js';
import { RequestError } from '../errors/request.js';
import { backendFor } from '../backends/registry.js';
import { ALL_CAPABILITIES, type Capabilities } from '../backends/faces/admin.js';

/** Whether `parts` are the same objects as `kept`'s (the document frozen: an unfrozen draft's may change in place). */
const sameParts = (kept: { parts: unknown[] } | null, parts: unknown[], frozen: boolean) => frozen && kept !== null && kept.parts.length === parts.length && kept.parts.every((p, i) => p === parts[i]);

/** A source's default schema and what its backend supports (the metadata actor, which validates collections, has every backend loaded). */
function sourceProfile(kind: string): { defaultSchema: string; capabilities: Capabilities } {
  const backend = backendFor(kind);
  return { defaultSchema: backend?.profile.defaultSchema ?? '', capabilities: backend?.capabilities ?? ALL_CAPABILITIES };
}

/** A resolved document as a snapshot (enum tables' columns typed by their scalar: their values are not loaded here). */
function snapshotOf(m: Metadata, catalogs: ReadonlyMap<string, SourceCatalog>, served: Served): MetadataSnapshot {
  const sources = Object.fromEntries(m.sources.map((s) => [s.name, { kind: s.kind, introspection: catalogs.get(s.name)?.introspection ?? null, ...sourceProfile(s.kind) }]));
  return { version: 0, generation: 0, metadata: m, sources, inconsistencies: served.inconsistencies, remotes: served.remotes, remoteSchemaPermissions: false };
}

/** The admin schema of the sources alone: the names remote schemas and actions must not take. */
function sourcesSchema(m: Metadata, catalogs: ReadonlyMap<string, SourceCatalog>, resolved: ResolvedMetadata): RoleSchema {
  const tracked = new TrackedTables(snapshotOf(m, catalogs, { remotes: {}, inconsistencies: [] }), resolved);
  return buildRoleSchema(buildRoleModel(tracked, 'admin'), new SharedTypes(tracked));
}

/** The admin schema as a client sees it: the sources, the remote schemas and actions served. */
function servedSchema(m: Metadata, catalogs: ReadonlyMap<string, SourceCatalog>, resolved: ResolvedMetadata, served: Served, memo: ResolveMemo): RoleSchema {
  const snapshot = snapshotOf(m, catalogs, served);
  const tracked = new TrackedTables(snapshot, resolved);
  return roleSchemaInputs(snapshot, tracked, new RemoteSchemas(snapshot, memo), buildRoleModel(tracked, 'admin'), 'admin').build(new SharedTypes(tracked));
}

/** Why a query does not validate, or null. */
function queryProblem(schema: RoleSchema, text: string): string | null {
  try {
    const doc = parseDocument(text);
    const op = doc.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    if (!op) return 'the query has no operation';
    return validationError(schema.schema, doc, op)?.message ?? null;
  } catch (e) {
    if (e instanceof RequestError) return e.message;
    throw e;
  }
}

function invalidQuery(c: QueryCollection, name: string, query: string, problem: string): Inconsistency {
  return {
    object: {
      type: 'query_collection',
      name: collectionQueryObjectName(c.name, name),
      definition: { collection: c.name, query_name: name, query },
      reason: `Inconsistent object: query ${JSON.stringify(name)} of query collection ${JSON.stringify(c.name)} is not valid: ${problem}`,
    },
    // drop_inconsistent_metadata and cascades drop the query from its collection.
    remove: (d) =>
      setQueryCollections(
        d,
        queryCollections(d).map((x) => (x.name === c.name ? { ...x, definition: { queries: x.definition.queries.filter((q) => q.name !== name) } } : x)),
      ),
  };
}

export class AdminSchemas implements AdminSchemaChecks {
  private sources: { parts: unknown[]; schema: GraphQLSchema } | null = null;
  private collectionsKept: { parts: unknown[]; result: Inconsistency[] } | null = null;
  private readonly rootFieldNames = new RootFieldNames();

  /** `memo`: the resolution memo of the same thread (the remote schemas' client schemas). */
  constructor(private readonly memo: ResolveMemo) {}

  rootFieldClaims(resolved: ResolvedMetadata, actions: readonly ActionMetadata[]): RootFieldClaim[] {
    return [...this.rootFieldNames.claims(resolved, (source) => sourceProfile(source.kind), this.memo), ...actionClaims(actions)];
  }

  sourceNames(m: Metadata, catalogs: ReadonlyMap<string, SourceCatalog>, resolved: ResolvedMetadata): SchemaNames {
    const parts = [m.sources, ...m.sources.map((x) => catalogs.get(x.name)?.introspection)];
    if (!sameParts(this.sources, parts, Object.isFrozen(m.sources))) this.sources = { parts, schema: sourcesSchema(m, catalogs, resolved).schema };
    const schema = this.sources!.schema;
    return {
      rootField: (root, name) => Boolean((root === 'query' ? schema.getQueryType() : schema.getMutationType())?.getFields()[name]),
      type: (name) => {
        const t = schema.getType(name);
        return t ? (isScalarType(t) ? 'scalar' : 'other') : undefined;
      },
    };
  }

  collections(m: Metadata, catalogs: ReadonlyMap<string, SourceCatalog>, resolved: ResolvedMetadata, served: Served): Inconsistency[] {
    const listed = new Set([...allowlist(m).map((e) => e.collection), ...restEndpoints(m).map((e) => e.definition.query.collection_name)]);
    const used = queryCollections(m).filter((c) => listed.has(c.name) && c.definition.queries.length > 0);
    if (used.length === 0) return [];
    const parts = [m.sources, m.query_collections, m.allowlist, m.rest_endpoints, m.remote_schemas, m.actions, m.custom_types, ...m.sources.map((s) => catalogs.get(s.name)?.introspection), ...Object.entries(served.remotes).flat(), JSON.stringify(served.inconsistencies)];
    if (sameParts(this.collectionsKept, parts, Object.isFrozen(m.sources))) return [...this.collectionsKept!.result];
    const schema = servedSchema(m, catalogs, resolved, served, this.memo);
    const result = used.flatMap((c) =>
      c.definition.queries.flatMap((q) => {
        const problem = queryProblem(schema, q.query);
        return problem ? [invalidQuery(c, q.name, q.query, problem)] : [];
      }),
    );
    this.collectionsKept = { parts, result };
    return [...result];
  }
}
