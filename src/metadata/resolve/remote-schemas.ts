/**
 * Remote schemas checked against what their servers answered and against the rest of the
 * schema (spec "Remote schema", "Inconsistent object"): a server that could not be
 * introspected, or a customized root field or type name already taken (by the sources' fields
 * and types, or by an earlier remote schema of the list), makes the remote schema inconsistent
 * with the reason. Run by the metadata actor (resolveDocument, metadata/resolve.ts); the schema
 * builder leaves out the remote schemas the snapshot lists as inconsistent.
 */
import type { IntrospectionQuery } from 'graphql';
import type { Json } from '../../util/decode.js';
import { remoteNaming } from '../remote-naming.js';
import { remoteSchemas, setRemoteSchemas, type RemoteSchemaMetadata } from '../remote-schemas.js';
import type { Metadata } from '../types.js';
import type { Inconsistency } from './types.js';
import { remotePermissionInconsistencies } from './remote-permissions.js';
import type { ResolveMemo } from './memo.js';

export interface RemoteState {
  introspection: IntrospectionQuery | null;
  error: string | null;
}

/** What the sources' part of the schema already uses. */
export interface TakenNames {
  rootField(root: 'query' | 'mutation', name: string): boolean;
  type(name: string): boolean;
}

export const remoteSchemaObjectName = (name: string) => `remote_schema ${name}`;

export function remoteInconsistency(rs: RemoteSchemaMetadata, reason: string): Inconsistency {
  return {
    object: { type: 'remote_schema', name: remoteSchemaObjectName(rs.name), definition: rs as unknown as Json, reason: `Inconsistent object: ${reason}` },
    remove: (d: Metadata) => setRemoteSchemas(d, remoteSchemas(d).filter((x) => x.name !== rs.name)),
  };
}

/** The customized names a remote schema adds: root fields per root (or its namespace field) and types. */
export function remoteNames(rs: RemoteSchemaMetadata, intro: IntrospectionQuery): { roots: Record<'query' | 'mutation', string[]>; types: string[] } {
  const naming = remoteNaming(rs.definition.customization);
  const s = intro.__schema;
  const rootNames = new Set([s.queryType?.name, s.mutationType?.name, s.subscriptionType?.name].filter((x): x is string => !!x));
  const fieldsOf = (typeName: string | undefined): string[] => {
    const t = s.types.find((x) => x.name === typeName);
    return t && 'fields' in t && t.fields ? t.fields.map((f) => naming.fieldName(t.name, f.name)) : [];
  };
  const roots = { query: fieldsOf(s.queryType?.name), mutation: fieldsOf(s.mutationType?.name ?? undefined) };
  const ns = naming.namespace;
  const types = s.types.filter((t) => !t.name.startsWith('__') && !rootNames.has(t.name) && !['Int', 'Float', 'String', 'Boolean', 'ID'].includes(t.name)).map((t) => naming.typeName(t.name));
  if (ns) return { roots: { query: [ns], mutation: roots.mutation.length ? [ns] : [] }, types: [...types, naming.namespaceType('query'), ...(roots.mutation.length ? [naming.namespaceType('mutation_frontend')] : [])] };
  return { roots, types };
}

/** The names the served remote schemas take (`served`: a remote's introspection when it is consistent, else null). */
export function servedRemoteNames(m: Metadata, served: (name: string) => IntrospectionQuery | null): TakenNames {
  const roots = { query: new Set<string>(), mutation: new Set<string>() };
  const types = new Set<string>();
  for (const rs of remoteSchemas(m)) {
    const intro = served(rs.name);
    if (!intro) continue;
    const names = remoteNames(rs, intro);
    for (const root of ['query', 'mutation'] as const) for (const f of names.roots[root]) roots[root].add(f);
    for (const t of names.types) types.add(t);
  }
  return { rootField: (root, name) => roots[root].has(name), type: (name) => types.has(name) };
}

export function resolveRemoteSchemas(m: Metadata, states: ReadonlyMap<string, RemoteState>, taken: TakenNames, memo: ResolveMemo): Inconsistency[] {
  const out: Inconsistency[] = [];
  const used = { query: new Set<string>(), mutation: new Set<string>(), types: new Map<string, string>() };
  for (const rs of remoteSchemas(m)) {
    const state = states.get(rs.name);
    if (!state?.introspection) {
      out.push(remoteInconsistency(rs, `remote schema ${JSON.stringify(rs.name)} could not be introspected: ${state?.error ?? 'not fetched yet'}`));
      continue;
    }
    const names = remoteNames(rs, state.introspection);
    const clash = (): string | null => {
      for (const root of ['query', 'mutation'] as const) {
        for (const f of names.roots[root]) {
          // The well-known engine's reasons: the sources' fields win, then the remote schemas earlier in the list.
          if (taken.rootField(root, f)) return `Field cannot be overwritten by remote field '${f}'`;
          if (used[root].has(f)) return `Duplicate remote field '${f}'`;
        }
      }
      for (const t of names.types) {
        if (taken.type(t)) return `the type ${JSON.stringify(t)} of remote schema ${JSON.stringify(rs.name)} clashes with a type of the same name in the schema`;
        const other = used.types.get(t);
        if (other) return `the type ${JSON.stringify(t)} of remote schema ${JSON.stringify(rs.name)} is also a type of remote schema ${JSON.stringify(other)}`;
      }
      return null;
    };
    const problem = clash();
    if (problem) {
      out.push(remoteInconsistency(rs, problem));
      continue;
    }
    out.push(...remotePermissionInconsistencies(m, rs, state.introspection, memo));
    for (const root of ['query', 'mutation'] as const) for (const f of names.roots[root]) used[root].add(f);
    for (const t of names.types) used.types.set(t, rs.name);
  }
  return out;
}
