/**
 * What is inconsistent in a document, as the metadata actor reports it: the resolution's
 * findings (metadata/resolve.ts, shared with the schema builder), the queries of the
 * allow-listed collections that do not validate against the admin schema as clients see it,
 * remote schemas and actions included (which only the metadata actor checks: the schema
 * builder serves collections as they are stored), and the
 * remote schemas that could not be introspected or whose names clash (the schema builder
 * leaves out those the snapshot lists).
 */
import { isScalarType, type GraphQLSchema } from 'graphql';
import { collectionInconsistencies, sourcesSchema } from '../../compiler/collection-validation.js';
import { resolveMetadata, type Inconsistency, type SourceCatalog } from '../../metadata/resolve.js';
import { remoteSchemaObjectName, resolveRemoteSchemas, servedRemoteNames, type RemoteState, type TakenNames } from '../../metadata/resolve/remote-schemas.js';
import { remoteRelationshipInconsistencies } from '../../metadata/resolve/remote-relationships.js';
import { remoteClientSchema } from '../../metadata/resolve/remote-permissions.js';
import { remoteSchemas } from '../../metadata/remote-schemas.js';
import type { Metadata } from '../../metadata/types.js';
import { eventTriggerInconsistencies } from '../../metadata/event-triggers.js';
import { actionInconsistencies, actionNameClashes } from '../../metadata/resolve/actions.js';
import { actions } from '../../metadata/actions.js';
import { storedCustomTypes } from '../../metadata/custom-types.js';

let keptSchema: { parts: unknown[]; schema: GraphQLSchema } | null = null;

export function documentInconsistencies(m: Metadata, catalogs: ReadonlyMap<string, SourceCatalog>, remotes: ReadonlyMap<string, RemoteState> = new Map()): Inconsistency[] {
  const resolved = resolveMetadata(m, catalogs);
  // Event triggers: an environment variable missing at boot, a column gone (spec "Event trigger").
  const out = [...resolved.inconsistencies, ...eventTriggerInconsistencies(m, catalogs, process.env), ...actionInconsistencies(m, resolved, process.env)];
  const withActions = actions(m).length > 0 || Object.keys(storedCustomTypes(m)).length > 0;
  if (remoteSchemas(m).length === 0 && !withActions) return [...out, ...collectionInconsistencies(m, catalogs, resolved), ...remoteRelationshipInconsistencies(m, resolved, () => null)];
  // The sources' names, from the admin schema (it sees every table and function), kept while the sources and catalogs are the same objects.
  const parts = [m.sources, ...m.sources.map((x) => catalogs.get(x.name)?.introspection)];
  if (!keptSchema || keptSchema.parts.length !== parts.length || keptSchema.parts.some((p, i) => p !== parts[i]) || !Object.isFrozen(m.sources)) {
    keptSchema = { parts, schema: sourcesSchema(m, catalogs, resolved).schema };
  }
  const schema = keptSchema.schema;
  const taken: TakenNames = {
    rootField: (root, name) => Boolean((root === 'query' ? schema.getQueryType() : schema.getMutationType())?.getFields()[name]),
    type: (name) => schema.getType(name) !== undefined,
  };
  const typeKind = (name: string) => {
    const t = schema.getType(name);
    return t ? (isScalarType(t) ? 'scalar' : 'other') : undefined;
  };
  const broken = resolveRemoteSchemas(m, remotes, taken);
  const inconsistent = new Set(broken.filter((i) => i.object.type === 'remote_schema').map((i) => i.object.name));
  const consistent = (name: string) => {
    const intro = remotes.get(name)?.introspection;
    return intro && !inconsistent.has(remoteSchemaObjectName(name)) ? intro : null;
  };
  const schemaOf = (name: string) => {
    const intro = consistent(name);
    return intro ? remoteClientSchema(intro) : null;
  };
  // Actions and custom types take no name of the sources' nor of a consistent remote schema's (which would break the schema).
  if (withActions) {
    const remote = servedRemoteNames(m, consistent);
    out.push(...actionNameClashes(m, { rootField: (root, name) => taken.rootField(root, name) || remote.rootField(root, name), type: (name) => typeKind(name) ?? (remote.type(name) ? 'other' : undefined) }));
  }
  // A collection's query may read remote schemas' fields (and actions'), as a client's does.
  const servedRemotes = Object.fromEntries(
    remoteSchemas(m).flatMap((r) => {
      const intro = consistent(r.name);
      return intro ? [[r.name, intro]] : [];
    }),
  );
  const served = { remotes: servedRemotes, inconsistencies: [...out, ...broken].map((i) => i.object) };
  return [...out, ...collectionInconsistencies(m, catalogs, resolved, served), ...broken, ...remoteRelationshipInconsistencies(m, resolved, schemaOf)];
}
