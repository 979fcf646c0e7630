/**
 * What depends on a metadata object, so that dropping it either fails listing the
 * dependents or (with `cascade`) removes them too. Each dependent knows how to
 * remove itself from a draft document.
 */
import type { QualifiedName } from '../catalog/types.js';
import { badRequest } from '../errors/admin.js';
import { isObject } from '../util/decode.js';
import { sameTable, showTable } from './names.js';
import type { InconsistentObject, Metadata, TableMetadata } from './types.js';

export interface Dependent {
  /** As messages print it: `relationship article.author`. */
  description: string;
  remove(m: Metadata): void;
}

/** `cannot drop due to the following dependent objects : relationship author.articles, ...` */
export const cannotDrop = (descriptions: string[], path: string) =>
  badRequest('dependency-error', `cannot drop due to the following dependent objects : ${descriptions.join(', ')}`, path);

export const dependencyError = (deps: Dependent[], path: string) => cannotDrop(deps.map((d) => d.description), path);

function asTable(v: unknown): QualifiedName | null {
  if (typeof v === 'string') return { schema: 'public', name: v };
  if (isObject(v) && typeof v.name === 'string') return { schema: typeof v.schema === 'string' ? v.schema : 'public', name: v.name };
  return null;
}

/**
 * Remote relationships into `table`. Dependents within the source (relationships,
 * permissions, computed fields) are found by resolving the document without the table:
 * see `cascadeDependents`.
 */
export function dependentsOfTable(m: Metadata, source: string, table: QualifiedName): Dependent[] {
  return remoteRelationshipsInto(m, (s, t) => s === source && sameTable(t, table));
}

/** How messages name a metadata object that a change would break: `permission article.user.select`. */
export function describeDependent(o: InconsistentObject): string {
  const def = isObject(o.definition) ? o.definition : {};
  const table = asTable(def.table);
  const on = table ? `${showTable(table)}.` : '';
  if (o.type === 'object_relation' || o.type === 'array_relation') return `relationship ${on}${String(def.name)}`;
  if (o.type === 'computed_field') return `computed field ${on}${String(def.name)}`;
  if (o.type.endsWith('_permission')) return `permission ${on}${String(def.role)}.${o.type.slice(0, -'_permission'.length)}`;
  if (o.type === 'table') return `table ${showTable(asTable(def) ?? { schema: 'public', name: o.name })}`;
  if (o.type === 'inherited_role') return `inherited role ${String(def.role_name)}`;
  return o.name;
}

/** Remote relationships (in any source) whose `to_source` target matches. */
function remoteRelationshipsInto(m: Metadata, matches: (source: string, table: QualifiedName) => boolean): Dependent[] {
  const out: Dependent[] = [];
  for (const src of m.sources) {
    for (const t of src.tables) {
      for (const rr of t.remote_relationships ?? []) {
        const def = isObject(rr.definition) ? rr.definition : null;
        const to = def && isObject(def.to_source) ? def.to_source : null;
        const target = to ? asTable(to.table) : null;
        if (!to || !target || typeof to.source !== 'string' || !matches(to.source, target)) continue;
        const owner: TableMetadata['table'] = t.table;
        const name = String(rr.name);
        const srcName = src.name;
        out.push({
          description: `remote_relationship ${showTable(owner)}.${name} in source ${srcName}`,
          remove: (d) => {
            const tt = d.sources.find((s) => s.name === srcName)?.tables.find((x) => sameTable(x.table, owner));
            if (tt?.remote_relationships) tt.remote_relationships = tt.remote_relationships.filter((x) => x.name !== name);
          },
        });
      }
    }
  }
  return out;
}

/** Objects in other sources that refer to `source`. */
export function dependentsOfSource(m: Metadata, source: string): Dependent[] {
  return remoteRelationshipsInto(m, (s) => s === source).filter((d) => !d.description.endsWith(`in source ${source}`));
}
