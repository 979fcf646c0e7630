/**
 * What depends on a metadata object, so that dropping it either fails listing the
 * dependents or (with `cascade`) removes them too. Each dependent knows how to
 * remove itself from a draft document.
 */
import type { QualifiedName } from '../backends/pg/catalog.js';
import { badRequest } from '../protocol/errors.js';
import { isObject, type JsonObject } from '../util/decode.js';
import { sameTable, showTable } from './names.js';
import type { Metadata, TableMetadata } from './types.js';

export interface Dependent {
  /** As messages print it: `relationship article.author`. */
  description: string;
  remove(m: Metadata): void;
}

export function dependencyError(deps: Dependent[], path: string) {
  return badRequest('dependency-error', `cannot drop due to the following dependent objects : ${deps.map((d) => d.description).join(', ')}`, path);
}

function asTable(v: unknown): QualifiedName | null {
  if (typeof v === 'string') return { schema: 'public', name: v };
  if (isObject(v) && typeof v.name === 'string') return { schema: typeof v.schema === 'string' ? v.schema : 'public', name: v.name };
  return null;
}

/** The table a relationship points at, when it is not the table it is defined on. */
export function relationshipTarget(rel: JsonObject): QualifiedName | null {
  const using = rel.using;
  if (!isObject(using)) return null;
  const fk = using.foreign_key_constraint_on;
  if (isObject(fk) && 'table' in fk) return asTable(fk.table);
  const manual = using.manual_configuration;
  if (isObject(manual)) return asTable(manual.remote_table);
  return null;
}

const RELATIONSHIP_KINDS = ['object_relationships', 'array_relationships'] as const;

function removeRelationship(m: Metadata, source: string, table: QualifiedName, kind: (typeof RELATIONSHIP_KINDS)[number], name: string) {
  const t = m.sources.find((s) => s.name === source)?.tables.find((x) => sameTable(x.table, table));
  if (t?.[kind]) t[kind] = t[kind]!.filter((r) => r.name !== name);
}

/** Relationships of other tables of the same source that point at `table`. */
export function dependentsOfTable(m: Metadata, source: string, table: QualifiedName): Dependent[] {
  const src = m.sources.find((s) => s.name === source);
  if (!src) return [];
  const out: Dependent[] = [];
  for (const t of src.tables) {
    if (sameTable(t.table, table)) continue;
    for (const kind of RELATIONSHIP_KINDS) {
      for (const rel of t[kind] ?? []) {
        const target = relationshipTarget(rel);
        if (target && sameTable(target, table)) {
          const owner = t.table;
          const name = String(rel.name);
          out.push({ description: `relationship ${showTable(owner)}.${name}`, remove: (d) => removeRelationship(d, source, owner, kind, name) });
        }
      }
    }
  }
  return out.concat(remoteRelationshipsInto(m, (s, t) => s === source && (!table || sameTable(t, table))));
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
