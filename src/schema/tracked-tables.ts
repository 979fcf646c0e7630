/**
 * What every role's model of one snapshot starts from, built once per snapshot: each tracked
 * table found in its source's catalog with the GraphQL names of all its columns,
 * relationships and computed fields, and the enum tables. A role's model keeps the parts its
 * permissions allow, so no role holds its own copy of catalog data.
 */
import type { PgIntrospection } from '../backends/pg/catalog.js';
import { qualifiedKey } from '../backends/pg/catalog.js';
import { ROOT_FIELD_KEYS } from '../metadata/customization.js';
import { isGraphQLName, sameTable } from '../metadata/names.js';
import type { SourceMetadata, TableMetadata } from '../metadata/types.js';
import type { MetadataSnapshot } from '../protocol/snapshot.js';
import { isObject } from '../util/decode.js';
import { tableKey, type ColumnInfo, type ComputedFieldInfo, type EnumTableInfo, type RelationshipInfo, type TableIdentity } from './model.js';
import { columnComment, columnFieldName, SourceNaming, tableIdentifier, tableRootField } from './naming.js';
import { relationshipJoin } from './relationships.js';
import { tableTexts, type TableTexts } from './table-texts.js';

export interface TrackedTable extends TableIdentity {
  /** Every column, in catalog order. */
  columns: ColumnInfo[];
  /** Every relationship whose join the catalog resolves, object relationships first. */
  relationships: RelationshipInfo[];
  /** Every computed field whose function the catalog has. */
  computedFields: ComputedFieldInfo[];
}

/** A source whose catalog is known, with its tracked tables in metadata order. */
export interface TrackedSource {
  source: SourceMetadata;
  naming: SourceNaming;
  catalog: PgIntrospection;
  tables: TrackedTable[];
}

function computedFields(source: string, naming: SourceNaming, t: TableMetadata, intro: PgIntrospection): ComputedFieldInfo[] {
  const out: ComputedFieldInfo[] = [];
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
    const name = String(cf.name);
    if (!isGraphQLName(naming.fieldName(name))) continue;
    out.push({
      name,
      fieldName: naming.fieldName(name),
      fn,
      extraArgs,
      sessionArgument: sessionArg,
      tableArgument: tableArg ? Math.max(0, fn.args.findIndex((a) => a.name === tableArg)) : 0,
      returnsTable: rt.kind === 'c' && fn.returnsSet ? tableKey(source, { schema: rt.schema, name: rt.name }) : null,
      description: typeof cf.comment === 'string' ? cf.comment : fn.comment,
    });
  }
  return out;
}

function relationships(source: string, naming: SourceNaming, t: TableMetadata, pg: TrackedTable['pg'], intro: PgIntrospection): RelationshipInfo[] {
  const out: RelationshipInfo[] = [];
  for (const kind of ['object', 'array'] as const) {
    for (const rel of t[`${kind}_relationships`] ?? []) {
      const join = relationshipJoin(intro, pg, rel);
      if (!join) continue;
      const name = String(rel.name);
      if (!isGraphQLName(naming.fieldName(name))) continue;
      out.push({ name, fieldName: naming.fieldName(name), kind, join, targetKey: tableKey(source, join.target), description: typeof rel.comment === 'string' ? rel.comment : null });
    }
  }
  return out;
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

export class TrackedTables {
  readonly sources: TrackedSource[] = [];
  /** Every enum table's values type every column that references it, whoever may select it. */
  readonly enumTables = new Map<string, EnumTableInfo>();

  constructor(readonly snapshot: MetadataSnapshot) {
    for (const source of snapshot.metadata.sources) {
      const catalog = snapshot.sources[source.name]?.introspection;
      if (!catalog) continue;
      const naming = new SourceNaming(source);
      if (naming.namespace !== null && !isGraphQLName(naming.namespace)) continue;
      const tables: TrackedTable[] = [];
      for (const meta of source.tables) {
        const pg = catalog.tables.find((x) => sameTable(x, meta.table));
        if (!pg) continue;
        const key = tableKey(source.name, meta.table);
        const identifier = tableIdentifier(meta);
        const texts = tableTexts(naming, identifier, meta, pg);
        if (!hasGraphQLNames(naming, meta, texts)) continue;
        if (meta.is_enum) {
          const rows = snapshot.sources[source.name]!.enumValues?.[qualifiedKey(meta.table)] ?? [];
          // Rows are data: one that is not a GraphQL name is left out, and an enum needs at least one value.
          const values = rows.filter((v) => isGraphQLName(naming.enumValue(v.value)));
          if (values.length > 0) this.enumTables.set(key, { source, pg, naming, identifier, values });
        }
        tables.push({
          key,
          source,
          naming,
          meta,
          pg,
          identifier,
          texts,
          columns: pg.columns
            .map((c) => ({ column: c, fieldName: columnFieldName(naming, meta, c.name), description: columnComment(meta, c.name) ?? c.comment }))
            .filter((c) => isGraphQLName(c.fieldName)),
          relationships: relationships(source.name, naming, meta, pg, catalog),
          computedFields: computedFields(source.name, naming, meta, catalog),
        });
      }
      this.sources.push({ source, naming, catalog, tables });
    }
  }
}
