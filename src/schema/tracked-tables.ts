/**
 * What every role's model of one snapshot starts from, built once per snapshot from the
 * resolved metadata (the only reading of the document): each consistent tracked table with
 * the GraphQL names of all its columns, relationships and computed fields, and the enum tables. A role's model keeps the parts its
 * permissions allow, so no role holds its own copy of catalog data.
 *
 * A snapshot's tables are made from the previous snapshot's where they can: resolution hands
 * out the same record for a table whose entry and fields did not change (resolve.ts), and a
 * source whose naming and capabilities are the same gives such a table the same names. At
 * 5,000 tables every permission change made all of them again (40 ms of the schema builder and
 * as much of garbage collection per change, on a core the metadata actor and the database need).
 */
import { ALL_CAPABILITIES, type Capabilities } from '../backends/faces/admin.js';
import type { DatabaseCatalog } from '../catalog/types.js';
import { computedCall } from '../ir/boolexp.js';
import { qualifiedKey } from '../catalog/types.js';
import type { ResolvedMetadata, ResolvedSource, ResolvedTable } from '../metadata/resolve/types.js';
import { ROOT_FIELD_KEYS } from '../metadata/customization.js';
import { isGraphQLName } from '../metadata/names.js';
import { sameSettings } from '../metadata/changes.js';
import type { SourceMetadata, TableMetadata } from '../metadata/types.js';
import type { MetadataSnapshot } from '../protocol/snapshot.js';
import { tableKey } from '../catalog/types.js';
import type { ColumnInfo, ComputedFieldInfo, EnumTableInfo, RelationshipInfo, TableIdentity } from './model.js';
import { columnComment, columnFieldName, SourceNaming, tableIdentifier, tableRootField } from './naming.js';
import { tableTexts, type TableTexts } from './table-texts.js';

export interface TrackedTable {
  /** What every role's view of the table starts from (copied into each role model's TableInfo). */
  identity: TableIdentity;
  /** The table as resolution left it: its consistent relationships, computed fields and permissions. */
  resolved: ResolvedTable;
  /** Every column, in catalog order. */
  columns: ColumnInfo[];
  /** Every resolved relationship, object relationships first. */
  relationships: RelationshipInfo[];
  /** Every resolved computed field. */
  computedFields: ComputedFieldInfo[];
}

/** A source whose catalog is known, with its consistent tracked tables in metadata order. */
export interface TrackedSource {
  source: SourceMetadata;
  naming: SourceNaming;
  catalog: DatabaseCatalog;
  capabilities: Capabilities;
  tables: TrackedTable[];
  /** Each table by the resolved record it was made from: the next snapshot's tables start from these. */
  made: Map<ResolvedTable, TrackedTable>;
  /** What its tables' identities hold of the source (`settingsOf`). */
  settings: SourceMetadata;
}

function computedFields(source: string, naming: SourceNaming, t: ResolvedTable): ComputedFieldInfo[] {
  return [...t.computedFields.values()].filter((cf) => isGraphQLName(naming.fieldName(cf.name))).map((cf) => ({
    name: cf.name,
    fieldName: naming.fieldName(cf.name),
    fn: cf.function,
    extraArgs: cf.inputArguments,
    call: computedCall(cf.function, cf.tableArgument, cf.sessionArgument),
    tableArgument: cf.tableArgument,
    columnArguments: cf.columnArguments,
    returnsTable: cf.returns.kind === 'table' ? tableKey(source, cf.returns.table) : null,
    description: cf.description,
  }));
}

function relationships(source: string, naming: SourceNaming, t: ResolvedTable): RelationshipInfo[] {
  return [...t.relationships.values()].filter((r) => isGraphQLName(naming.fieldName(r.name))).map((r) => ({
    name: r.name,
    fieldName: naming.fieldName(r.name),
    kind: r.kind,
    join: { target: r.target, mapping: r.mapping },
    targetKey: tableKey(source, r.target),
    description: r.comment,
  }));
}

/**
 * Whether a table's type and root field names are GraphQL names. Metadata commands refuse
 * bad names and resolution reports stored ones as inconsistent; the schema leaves out
 * whatever still would not be a name (a column, a relationship, a table), so one bad
 * object never breaks the schema of every role (graphql-js throws on an invalid name).
 */
function hasGraphQLNames(naming: SourceNaming, meta: TableMetadata, texts: TableTexts): boolean {
  return isGraphQLName(texts.object.name) && ROOT_FIELD_KEYS.every((kind) => isGraphQLName(tableRootField(naming, meta, kind).name));
}

/** A table's names and fields as every role's view of it starts from; null when its names are not GraphQL names (it is left out). */
export function trackedTable(rs: ResolvedSource, settings: SourceMetadata, naming: SourceNaming, t: ResolvedTable, capabilities: Capabilities): TrackedTable | null {
  const { entry: meta, catalog } = t;
  const identifier = tableIdentifier(meta, naming.defaultSchema);
  const texts = tableTexts(naming, identifier, meta, catalog);
  if (!hasGraphQLNames(naming, meta, texts)) return null;
  return {
    identity: { key: tableKey(rs.name, t.name), source: settings, naming, meta, catalog, identifier, capabilities, texts },
    resolved: t,
    columns: catalog.columns
      .map((c) => ({ column: c, fieldName: columnFieldName(naming, meta, c.name), description: columnComment(meta, c.name) ?? c.comment }))
      .filter((c) => isGraphQLName(c.fieldName)),
    relationships: relationships(rs.name, naming, t),
    computedFields: computedFields(rs.name, naming, t),
  };
}

/** The previous snapshot's source, if the tables it made are named as this snapshot's would be. */
function sameNames(before: TrackedSource | undefined, rs: ResolvedSource, defaultSchema: string, capabilities: Capabilities): TrackedSource | null {
  if (!before || before.catalog !== rs.introspection || before.capabilities !== capabilities) return null;
  return before.source.customization === rs.metadata.customization && before.naming.defaultSchema === defaultSchema ? before : null;
}

/** A table made for an earlier snapshot, with this one's source settings (its name and functions are what is read of them). */
const inSource = (table: TrackedTable, settings: SourceMetadata): TrackedTable =>
  table.identity.source === settings ? table : { ...table, identity: { ...table.identity, source: settings } };

/**
 * The source's settings as its tables' identities hold them: without its table list, and the
 * previous snapshot's object while they are the same. A permission change makes a new source
 * object whose tables alone changed: its 5,000 kept tables were each copied for it (6 of the
 * schema builder's 19 ms per change), and an identity holding the whole source would keep its
 * table list alive for as long as the table is kept.
 */
function settingsOf(before: TrackedSource | null, source: SourceMetadata): SourceMetadata {
  return before && sameSettings(before.settings, source) ? before.settings : Object.freeze({ ...source, tables: Object.freeze([]) as unknown as TableMetadata[] });
}

export class TrackedTables {
  readonly sources: TrackedSource[] = [];
  /** Every enum table's values type every column that references it, whoever may select it. */
  readonly enumTables = new Map<string, EnumTableInfo>();

  /** `previous`: the tables of the snapshot before, which this one's start from. */
  constructor(
    readonly snapshot: MetadataSnapshot,
    readonly resolved: ResolvedMetadata,
    previous: TrackedTables | null = null,
  ) {
    for (const rs of resolved.sources.values()) {
      const defaultSchema = snapshot.sources[rs.name]?.defaultSchema ?? '';
      const capabilities = snapshot.sources[rs.name]?.capabilities ?? ALL_CAPABILITIES;
      const before = sameNames(
        previous?.sources.find((s) => s.source.name === rs.name),
        rs,
        defaultSchema,
        capabilities,
      );
      const naming = before?.naming ?? new SourceNaming(rs.metadata, defaultSchema);
      const settings = settingsOf(before, rs.metadata);
      if (naming.namespace !== null && !isGraphQLName(naming.namespace)) continue;
      const tables: TrackedTable[] = [];
      const made = new Map<ResolvedTable, TrackedTable>();
      for (const t of rs.tables.values()) {
        const kept = before?.made.get(t);
        const table = kept ? inSource(kept, settings) : trackedTable(rs, settings, naming, t, capabilities);
        if (!table) continue;
        made.set(t, table);
        if (t.entry.is_enum) {
          const rows = snapshot.sources[rs.name]?.enumValues?.[qualifiedKey(t.name)] ?? [];
          // Rows are data: one that is not a GraphQL name is left out, and an enum needs at least one value.
          const values = rows.filter((v) => isGraphQLName(naming.enumValue(v.value)));
          if (values.length > 0) this.enumTables.set(table.identity.key, { source: rs.metadata, catalog: t.catalog, naming, identifier: table.identity.identifier, values });
        }
        tables.push(table);
      }
      this.sources.push({ source: rs.metadata, settings, naming, catalog: rs.introspection, capabilities, tables, made });
    }
  }
}
