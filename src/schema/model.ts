/**
 * What one role can query in one metadata snapshot, before it is turned into GraphQL
 * types: the tables it may select from, their visible columns, relationships and
 * computed fields, and the permission to apply.
 */
import type { PgColumn, PgFunction, PgIntrospection, PgTable, QualifiedName } from '../backends/pg/catalog.js';
import { qualifiedKey } from '../backends/pg/catalog.js';
import type { Join } from '../ir/select.js';
import { sameTable } from '../metadata/names.js';
import type { SourceMetadata, TableMetadata } from '../metadata/types.js';
import type { MetadataSnapshot } from '../protocol/snapshot.js';
import { isObject } from '../util/decode.js';
import { columnComment, columnFieldName, SourceNaming, tableIdentifier } from './naming.js';
import { relationshipJoin } from './relationships.js';
import { selectPermission, type FilterParser, type SelectPermission } from './select-permissions.js';

export interface ColumnInfo {
  column: PgColumn;
  fieldName: string;
  description: string | null;
}

export interface RelationshipInfo {
  name: string;
  fieldName: string;
  kind: 'object' | 'array';
  join: Join;
  targetKey: string;
  description: string | null;
}

export interface ComputedFieldInfo {
  name: string;
  fieldName: string;
  fn: PgFunction;
  /** Arguments after the row (and session) argument, exposed as `args`. */
  extraArgs: PgFunction['args'];
  /** The SETOF table for set-returning fields, else null (scalar). */
  returnsTable: string | null;
  description: string | null;
}

export interface TableInfo {
  key: string;
  source: SourceMetadata;
  naming: SourceNaming;
  meta: TableMetadata;
  pg: PgTable;
  identifier: string;
  permission: SelectPermission;
  columns: ColumnInfo[];
  relationships: RelationshipInfo[];
  computedFields: ComputedFieldInfo[];
  /** Values of an enum table, when `is_enum`. */
  enumValues: { value: string; comment: string | null }[] | null;
}

export interface RoleModel {
  role: string;
  tables: Map<string, TableInfo>;
  /** For resolving relationships named in permission filters (which ignore the role). */
  catalog(source: string): PgIntrospection | null;
}

export const tableKey = (source: string, t: QualifiedName) => `${source}\u0000${qualifiedKey(t)}`;

function computedFields(t: TableMetadata, intro: PgIntrospection): Omit<ComputedFieldInfo, 'fieldName'>[] {
  const out: Omit<ComputedFieldInfo, 'fieldName'>[] = [];
  for (const cf of t.computed_fields ?? []) {
    const def = isObject(cf.definition) ? cf.definition : null;
    const fnRef = def && isObject(def.function) ? def.function : def && typeof def.function === 'string' ? { name: def.function } : null;
    if (!fnRef || typeof fnRef.name !== 'string') continue;
    const schema = typeof fnRef.schema === 'string' ? fnRef.schema : 'public';
    const fn = intro.functions.find((f) => f.schema === schema && f.name === fnRef.name);
    if (!fn) continue;
    const tableArg = typeof def!.table_argument === 'string' ? def!.table_argument : null;
    const sessionArg = typeof def!.session_argument === 'string' ? def!.session_argument : null;
    const extraArgs = fn.args.filter((a, i) => (tableArg ? a.name !== tableArg : i !== 0) && a.name !== sessionArg);
    const rt = fn.returnType;
    const returnsTable = rt.kind === 'c' && fn.returnsSet ? qualifiedKey({ schema: rt.schema, name: rt.name }) : null;
    out.push({
      name: String(cf.name),
      fn,
      extraArgs,
      returnsTable,
      description: typeof cf.comment === 'string' ? cf.comment : fn.comment,
    });
  }
  return out;
}

export function buildRoleModel(snapshot: MetadataSnapshot, role: string, parse: FilterParser): RoleModel {
  const tables = new Map<string, TableInfo>();
  const sources = snapshot.metadata.sources.filter((s) => snapshot.sources[s.name]?.introspection);
  for (const source of sources) {
    const intro = snapshot.sources[source.name]!.introspection!;
    const naming = new SourceNaming(source);
    for (const t of source.tables) {
      const pg = intro.tables.find((x) => sameTable(x, t.table));
      if (!pg) continue;
      const computed = computedFields(t, intro);
      const permission = selectPermission(snapshot.metadata, t, role, pg.columns.map((c) => c.name), computed.map((c) => c.name), parse);
      if (!permission) continue;
      const key = tableKey(source.name, t.table);
      tables.set(key, {
        key,
        source,
        naming,
        meta: t,
        pg,
        identifier: tableIdentifier(t),
        permission,
        columns: pg.columns
          .filter((c) => permission.columns.has(c.name))
          .map((c) => ({ column: c, fieldName: columnFieldName(naming, t, c.name), description: columnComment(t, c.name) ?? c.comment })),
        relationships: [],
        computedFields: computed
          .filter((c) => permission.computedFields.has(c.name))
          .map((c) => ({ ...c, fieldName: naming.fieldName(c.name) })),
        enumValues: t.is_enum ? (snapshot.sources[source.name]!.enumValues?.[qualifiedKey(t.table)] ?? []) : null,
      });
    }
  }
  // Relationships only to tables the role can also see.
  for (const info of tables.values()) {
    const intro = snapshot.sources[info.source.name]!.introspection!;
    for (const kind of ['object', 'array'] as const) {
      for (const rel of info.meta[`${kind}_relationships`] ?? []) {
        const join = relationshipJoin(intro, info.pg, rel);
        if (!join) continue;
        const targetKey = tableKey(info.source.name, join.target);
        if (!tables.has(targetKey)) continue;
        const name = String(rel.name);
        info.relationships.push({ name, fieldName: info.naming.fieldName(name), kind, join, targetKey, description: typeof rel.comment === 'string' ? rel.comment : null });
      }
    }
  }
  return { role, tables, catalog: (s) => snapshot.sources[s]?.introspection ?? null };
}
