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
import { functionInfos, type FunctionInfo } from './functions.js';
import { selectPermission, type FilterParser, type SelectPermission } from './select-permissions.js';
import { deletePermission, insertPermission, updatePermission, type DeletePermission, type InsertPermission, type UpdatePermission } from './mutation-permissions.js';

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
  /** The argument that receives the session variables as JSON, if any. */
  sessionArgument: string | null;
  /** Index of the argument that receives the row. */
  tableArgument: number;
  /** The table key (`tableKey`) of the rows a set-returning field gives, else null (scalar). */
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
}

/** A table the role may insert into, update or delete from. */
export interface MutableTableInfo {
  key: string;
  source: SourceMetadata;
  naming: SourceNaming;
  meta: TableMetadata;
  pg: PgTable;
  identifier: string;
  /** Every column with its GraphQL name (inputs pick the permitted ones). */
  columns: ColumnInfo[];
  insert: InsertPermission | null;
  update: UpdatePermission | null;
  delete: DeletePermission | null;
  /** The same table as the role may select it (for `returning`), or null. */
  selectable: TableInfo | null;
  /** Relationships to tables the role may insert into (nested inserts). */
  relationships: RelationshipInfo[];
}

/** An enum table (`is_enum`): its values type every column that references it, whoever may select it. */
export interface EnumTableInfo {
  source: SourceMetadata;
  pg: PgTable;
  naming: SourceNaming;
  identifier: string;
  values: { value: string; comment: string | null }[];
}

export interface RoleModel {
  role: string;
  tables: Map<string, TableInfo>;
  functions: FunctionInfo[];
  enumTables: Map<string, EnumTableInfo>;
  mutable: Map<string, MutableTableInfo>;
  /** For resolving relationships named in permission filters (which ignore the role). */
  catalog(source: string): PgIntrospection | null;
}

export const tableKey = (source: string, t: QualifiedName) => `${source}\u0000${qualifiedKey(t)}`;

function computedFields(source: string, t: TableMetadata, intro: PgIntrospection): Omit<ComputedFieldInfo, 'fieldName'>[] {
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
    const returnsTable = rt.kind === 'c' && fn.returnsSet ? tableKey(source, { schema: rt.schema, name: rt.name }) : null;
    out.push({
      name: String(cf.name),
      fn,
      extraArgs,
      sessionArgument: sessionArg,
      tableArgument: tableArg ? Math.max(0, fn.args.findIndex((a) => a.name === tableArg)) : 0,
      returnsTable,
      description: typeof cf.comment === 'string' ? cf.comment : fn.comment,
    });
  }
  return out;
}

/**
 * `backendOnly`: the request may use `backend_only` mutation permissions (admin
 * secret plus `X-Service-Use-Backend-Only-Permissions: true`); otherwise they are absent.
 */
export function buildRoleModel(snapshot: MetadataSnapshot, role: string, parse: FilterParser, backendOnly = false): RoleModel {
  const tables = new Map<string, TableInfo>();
  const mutable = new Map<string, MutableTableInfo>();
  const enumTables = new Map<string, EnumTableInfo>();
  const sources = snapshot.metadata.sources.filter((s) => snapshot.sources[s.name]?.introspection);
  for (const source of sources) {
    const intro = snapshot.sources[source.name]!.introspection!;
    const naming = new SourceNaming(source);
    for (const t of source.tables) {
      const pg = intro.tables.find((x) => sameTable(x, t.table));
      if (!pg) continue;
      const computed = computedFields(source.name, t, intro);
      const key = tableKey(source.name, t.table);
      if (t.is_enum) {
        const values = snapshot.sources[source.name]!.enumValues?.[qualifiedKey(t.table)] ?? [];
        enumTables.set(key, { source, pg, naming, identifier: tableIdentifier(t), values });
      }
      const allColumns = pg.columns.map((c) => c.name);
      const usable = <P extends { backendOnly: boolean }>(p: P | null) => (p && (!p.backendOnly || backendOnly) ? p : null);
      const insert = usable(insertPermission(snapshot.metadata, t, role, allColumns, parse));
      const update = usable(updatePermission(snapshot.metadata, t, role, allColumns, parse));
      const del = usable(deletePermission(snapshot.metadata, t, role, parse));
      if (insert || update || del) {
        mutable.set(key, {
          key,
          source,
          naming,
          meta: t,
          pg,
          identifier: tableIdentifier(t),
          columns: pg.columns.map((c) => ({ column: c, fieldName: columnFieldName(naming, t, c.name), description: columnComment(t, c.name) ?? c.comment })),
          insert,
          update,
          delete: del,
          selectable: null,
          relationships: [],
        });
      }
      const permission = selectPermission(snapshot.metadata, t, role, allColumns, computed.map((c) => c.name), parse);
      if (!permission) continue;
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
      });
    }
  }
  for (const m of mutable.values()) {
    m.selectable = tables.get(m.key) ?? null;
    const intro = snapshot.sources[m.source.name]!.introspection!;
    for (const kind of ['object', 'array'] as const) {
      for (const rel of m.meta[`${kind}_relationships`] ?? []) {
        const join = relationshipJoin(intro, m.pg, rel);
        const targetKey = join ? tableKey(m.source.name, join.target) : '';
        if (!join || !mutable.get(targetKey)?.insert) continue;
        const name = String(rel.name);
        m.relationships.push({ name, fieldName: m.naming.fieldName(name), kind, join, targetKey, description: typeof rel.comment === 'string' ? rel.comment : null });
      }
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
  const functions = sources.flatMap((source) => functionInfos(source, new SourceNaming(source), snapshot.sources[source.name]!.introspection!, tables));
  return { role, tables, functions, mutable, enumTables, catalog: (s) => snapshot.sources[s]?.introspection ?? null };
}
