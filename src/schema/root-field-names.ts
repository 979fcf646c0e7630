/**
 * The root fields each tracked table, function and namespaced source gives the admin's schema
 * (every role's root fields are a part of the admin's), named by naming.ts as build.ts and
 * mutation-types.ts name them, for the metadata actor's check that no two objects define one
 * field (metadata/resolve/root-fields.ts). Which fields a table has follows the builder: the
 * `_by_pk` fields with a primary key, `_stream` with a column a cursor can order, mutations
 * where the backend and the database allow them.
 */
import { claimedField, type RootFieldClaim } from '../metadata/resolve/root-fields.js';
import { showTable } from '../metadata/names.js';
import { actionRoots } from './actions.js';
import type { ActionMetadata } from '../metadata/actions.js';
import { exposedFunctions } from './functions.js';
import { functionRootFields, tableRootField, type RootFieldKind, type SourceNaming } from './naming.js';
import type { TrackedSource, TrackedTable } from './tracked-tables.js';

type Root = 'query_root' | 'mutation_root' | 'subscription_root';

/** On a root, or under the source's namespace field: the type a root's fields are on. */
const NAMESPACE_SUFFIX: Record<Root, string> = { query_root: 'query', mutation_root: 'mutation_frontend', subscription_root: 'subscription' };
const selectionSet = (naming: SourceNaming, root: Root) => (naming.namespace ? naming.namespaceType(NAMESPACE_SUFFIX[root]) : root);

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

/**
 * The claims of one source's tables (each kept in `made` while its table is the same object:
 * a change leaves most tables' as they were), functions and namespace field, in metadata order.
 */
export function sourceClaims(s: TrackedSource, made: WeakMap<TrackedTable, RootFieldClaim>): RootFieldClaim[] {
  const out: RootFieldClaim[] = [];
  for (const t of s.tables) {
    let claim = made.get(t);
    if (!claim) made.set(t, (claim = tableClaim(t)));
    out.push(claim);
  }
  const functions = exposedFunctions(s.source, s.catalog);
  if (functions.length > 0) {
    const tracked = new Set(s.tables.map((t) => t.identity.key));
    for (const f of functions) {
      if (!tracked.has(f.tableKey)) continue;
      const { rootName, aggregateName } = functionRootFields(s.naming, f.fn, f.config);
      const roots: Root[] = ['query_root', 'subscription_root'];
      out.push({ origin: `function ${showTable(f.fn)} in source ${s.source.name}`, fields: roots.flatMap((r) => [rootName, aggregateName].map((n) => claimedField(selectionSet(s.naming, r), n))) });
    }
  }
  const ns = s.naming.namespace;
  if (ns) {
    // The namespace field is on each root its source puts a field on.
    const roots = (Object.keys(NAMESPACE_SUFFIX) as Root[]).filter((r) => out.some((c) => c.fields.some((f) => f.startsWith(`${selectionSet(s.naming, r)}\u0000`))));
    out.push({ origin: `source ${s.source.name}`, fields: roots.map((r) => claimedField(r, ns)) });
  }
  return out;
}

/** The claims of the consistent actions: each is a field named as the action on its roots. */
export const actionClaims = (list: readonly ActionMetadata[]): RootFieldClaim[] =>
  list.map((a) => ({ origin: `action ${a.name}`, fields: actionRoots(a.definition).map((r) => claimedField(r, a.name)) }));
