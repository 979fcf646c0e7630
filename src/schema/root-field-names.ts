/**
 * The root fields each tracked table, function and namespaced source gives the admin's schema
 * (every role's root fields are a part of the admin's), named by naming.ts as build.ts and
 * mutation-types.ts name them, for the metadata actor's check that no two objects define one
 * field (metadata/resolve/root-fields.ts). Which fields a table has follows the builder: the
 * `_by_pk` fields with a primary key, `_stream` with a column a cursor can order, mutations
 * where the backend and the database allow them.
 */
import { claimedField, type RootFieldClaim } from '../metadata/resolve/root-fields.js';
import { actionRoots, type RootTypeName as Root } from './actions.js';
import type { ActionMetadata } from '../metadata/actions.js';
import { exposedFunctions } from './functions.js';
import { functionRootFields, NAMESPACE_TYPE_SUFFIX, SourceNaming, tableRootField, type RootFieldKind } from './naming.js';
import { trackedTable, type TrackedTable } from './tracked-tables.js';
import type { Capabilities } from '../backends/faces/admin.js';
import type { CatalogTable } from '../catalog/types.js';
import { isGraphQLName, showTable } from '../metadata/names.js';
import type { ResolvedMetadata, ResolvedSource, ResolvedTable } from '../metadata/resolve/types.js';
import type { ResolveMemo } from '../metadata/resolve/memo.js';
import type { SourceMetadata } from '../metadata/types.js';

/** On a root, or under the source's namespace field: the type a root's fields are on. */
const selectionSet = (naming: SourceNaming, root: Root) => (naming.namespace ? naming.namespaceType(NAMESPACE_TYPE_SUFFIX[root]) : root);

/** The kinds of root field the admin has on each root for a table. */
function tableKinds(t: TrackedTable): [Root, RootFieldKind][] {
  const { catalog, capabilities } = t.identity;
  const pk = catalog.primaryKey;
  const byPk = pk !== null && pk.columns.every((c) => t.columns.some((x) => x.column.name === c));
  const reads: RootFieldKind[] = ['select', 'select_aggregate', ...(byPk ? (['select_by_pk'] as const) : [])];
  const out: [Root, RootFieldKind][] = reads.map((k) => ['query_root', k]);
  if (capabilities.subscriptions) {
    out.push(...reads.map((k): [Root, RootFieldKind] => ['subscription_root', k]));
    if (capabilities.streaming && t.columns.some((c) => c.column.type.traits.comparable)) out.push(['subscription_root', 'select_stream']);
  }
  if (!capabilities.mutations) return out;
  const mutations: RootFieldKind[] = [];
  if (catalog.insertable) mutations.push('insert', 'insert_one');
  // An update needs a column it may set (`_set`): the database sets the immutable ones.
  if (catalog.updatable && t.columns.some((c) => !c.column.immutable)) mutations.push('update', ...(byPk ? (['update_by_pk'] as const) : []), 'update_many');
  if (catalog.deletable) mutations.push('delete', ...(byPk ? (['delete_by_pk'] as const) : []));
  return [...out, ...mutations.map((k): [Root, RootFieldKind] => ['mutation_root', k])];
}

function tableClaim(t: TrackedTable): RootFieldClaim {
  const { naming, meta, source } = t.identity;
  return {
    origin: `table ${showTable(meta.table)} in source ${source.name}`,
    fields: tableKinds(t).map(([root, kind]) => claimedField(selectionSet(naming, root), tableRootField(naming, meta, kind).name)),
  };
}

/** A source's naming and capabilities, kept while its customization, default schema and backend are the same. */
interface SourceNames {
  customization: unknown;
  defaultSchema: string;
  capabilities: Capabilities;
  naming: SourceNaming;
}

/** A table's claim, valid while its configuration and naming are the same objects (keyed by its catalog table: the same object while the catalog is). */
interface KeptClaim {
  configuration: unknown;
  naming: SourceNaming;
  /** Null: the table is left out of the schema (a name that is not a GraphQL name). */
  claim: RootFieldClaim | null;
}

/** A source's table claims in table order (null: a table left out), with the resolved records they were made from. */
interface SourceTables {
  names: SourceNames;
  records: ReadonlyMap<string, ResolvedTable>;
  /** Each table's place (by its records key). */
  index: Map<string, number>;
  claims: (RootFieldClaim | null)[];
}

/**
 * Each source's claims, kept by its caller (the metadata actor's admin checks) between checks.
 * A permission change makes a new record for one table of 5,000 (resolution says which:
 * `ResolveMemo.derivedRecords`), and only its claim is looked at again; that claim is the one
 * kept while the table's configuration and catalog table are the same objects. Making every
 * table's claim again from tracked-tables.ts took 7-14 ms per change at 5,000 tables, looking
 * each one up 2 ms.
 */
export class RootFieldNames {
  private readonly sources = new Map<string, SourceNames>();
  private readonly tables = new Map<string, SourceTables>();
  private readonly kept = new WeakMap<CatalogTable, KeptClaim>();

  /** `profile`: a source's default schema and capabilities (the snapshot's); `memo`: the resolution's that made `resolved`. */
  claims(resolved: ResolvedMetadata, profile: (source: SourceMetadata) => { defaultSchema: string; capabilities: Capabilities }, memo: ResolveMemo): RootFieldClaim[] {
    const out: RootFieldClaim[] = [];
    for (const rs of resolved.sources.values()) {
      const names = this.sourceNames(rs, profile(rs.metadata));
      if (names.naming.namespace !== null && !isGraphQLName(names.naming.namespace)) continue;
      const start = out.length;
      for (const claim of this.tableClaims(rs, names, memo)) if (claim) out.push(claim);
      out.push(...functionClaims(rs, names.naming));
      const ns = names.naming.namespace;
      if (ns) {
        // The namespace field is on each root its source puts a field on.
        const mine = out.slice(start);
        const roots = (Object.keys(NAMESPACE_TYPE_SUFFIX) as Root[]).filter((r) => mine.some((c) => c.fields.some((f) => f.startsWith(`${selectionSet(names.naming, r)}\u0000`))));
        out.push({ origin: `source ${rs.name}`, fields: roots.map((r) => claimedField(r, ns)) });
      }
    }
    return out;
  }

  private tableClaims(rs: ResolvedSource, names: SourceNames, memo: ResolveMemo): (RootFieldClaim | null)[] {
    const last = this.tables.get(rs.name);
    if (last && last.names === names) {
      if (last.records === rs.tables) return last.claims;
      const derived = memo.derivedRecords.get(rs.tables);
      if (derived && derived.from.deref() === last.records && derived.keys.every((k) => last.index.has(k))) {
        const claims = last.claims.slice();
        for (const key of derived.keys) claims[last.index.get(key)!] = this.claimOf(rs, names, rs.tables.get(key)!);
        this.tables.set(rs.name, { ...last, records: rs.tables, claims });
        return claims;
      }
    }
    const index = new Map<string, number>();
    const claims: (RootFieldClaim | null)[] = [];
    for (const [key, t] of rs.tables) {
      index.set(key, claims.length);
      claims.push(this.claimOf(rs, names, t));
    }
    this.tables.set(rs.name, { names, records: rs.tables, index, claims });
    return claims;
  }

  private claimOf(rs: ResolvedSource, names: SourceNames, t: ResolvedTable): RootFieldClaim | null {
    let kept = this.kept.get(t.catalog);
    if (!kept || kept.configuration !== t.entry.configuration || kept.naming !== names.naming) {
      const tracked = trackedTable(rs, rs.metadata, names.naming, t, names.capabilities);
      kept = { configuration: t.entry.configuration, naming: names.naming, claim: tracked && tableClaim(tracked) };
      this.kept.set(t.catalog, kept);
    }
    return kept.claim;
  }

  private sourceNames(rs: ResolvedSource, { defaultSchema, capabilities }: { defaultSchema: string; capabilities: Capabilities }): SourceNames {
    const customization = rs.metadata.customization;
    const kept = this.sources.get(rs.name);
    if (kept && kept.customization === customization && kept.defaultSchema === defaultSchema && kept.capabilities === capabilities) return kept;
    const names = { customization, defaultSchema, capabilities, naming: new SourceNaming(rs.metadata, defaultSchema) };
    this.sources.set(rs.name, names);
    return names;
  }
}

/** The root fields of the exposed functions whose table is tracked, on the query and subscription roots, as build.ts puts them. */
function functionClaims(rs: ResolvedSource, naming: SourceNaming): RootFieldClaim[] {
  if (!rs.metadata.functions?.length) return [];
  return exposedFunctions(rs.metadata, rs.introspection).flatMap((f) => {
    if (!rs.tables.has(f.tableKey.slice(rs.name.length + 1))) return [];
    const { rootName, aggregateName } = functionRootFields(naming, f.fn, f.config);
    // A name that is not a GraphQL name leaves the function out of the schema (functions.ts): it defines nothing.
    if (!isGraphQLName(rootName) || !isGraphQLName(aggregateName)) return [];
    const roots: Root[] = ['query_root', 'subscription_root'];
    return [{ origin: `function ${showTable(f.fn)} in source ${rs.name}`, fields: roots.flatMap((r) => [rootName, aggregateName].map((n) => claimedField(selectionSet(naming, r), n))) }];
  });
}

/** The claims of the consistent actions: each is a field named as the action on its roots. */
export const actionClaims = (list: readonly ActionMetadata[]): RootFieldClaim[] =>
  list.map((a) => ({ origin: `action ${a.name}`, fields: actionRoots(a.definition).map((r) => claimedField(r, a.name)) }));
