/**
 * Citus detected from its catalog: when the database has a `pg_dist_partition` relation,
 * each table it lists is distributed (hash, range or append: sharded by its partition key's
 * column; a single shard when it has none but a colocation group), a reference table
 * (replicated everywhere) or a Citus local table. The distribution goes into the neutral
 * catalog (`CatalogTable.distribution`), whose joins `metadata/distribution.ts` limits.
 * The partition key is a node string (`{VAR :varno 1 :varattno 2 ...}`): its attribute number
 * names the column, as Citus' own `column_to_column_name` reads it.
 */
import type { DatabaseCatalog, TableDistribution } from '../../catalog/types.js';

export type Query = (text: string, values: unknown[]) => Promise<Record<string, unknown>[]>;

/** Whether the database has Citus' catalog (resolved on the search path, so a fixture schema may stand in for it). */
export const DETECT = `SELECT to_regclass('pg_dist_partition') IS NOT NULL AS present`;

export const PARTITIONS = `SELECT n.nspname AS schema, c.relname AS name, p.partmethod::text AS method,
  p.repmodel::text AS replication, p.colocationid::int AS colocation, a.attname::text AS column
FROM pg_dist_partition p
JOIN pg_class c ON c.oid = p.logicalrelid
JOIN pg_namespace n ON n.oid = c.relnamespace
LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = substring(p.partkey from ':varattno ([0-9]+)')::int`;

/** One `pg_dist_partition` row, with its table's and distribution column's names. */
export interface PartitionRow {
  schema: string;
  name: string;
  method: string;
  replication: string;
  colocation: number | null;
  column: string | null;
}

/** What a `pg_dist_partition` row says about its table. */
export function distributionOf(row: PartitionRow): TableDistribution {
  if (row.method !== 'n') return { kind: 'distributed', column: row.column };
  if (row.replication === 't') return { kind: 'reference', column: null };
  // Citus 12's single-shard distributed tables (schema-based sharding) have a colocation group; Citus local tables have none.
  return (row.colocation ?? 0) > 0 ? { kind: 'distributed', column: null } : { kind: 'local', column: null };
}

/** The catalog with each listed table's distribution (a new object: the pg catalog is left as it was). */
export function withDistribution(catalog: DatabaseCatalog, rows: readonly PartitionRow[]): DatabaseCatalog {
  if (rows.length === 0) return catalog;
  const byTable = new Map(rows.map((r) => [`${r.schema}.${r.name}`, distributionOf(r)]));
  return {
    ...catalog,
    tables: catalog.tables.map((t) => {
      const distribution = byTable.get(`${t.schema}.${t.name}`);
      return distribution ? { ...t, distribution } : t;
    }),
  };
}

/** The distribution rows of the database, none when Citus is absent. */
export async function readPartitions(query: Query): Promise<PartitionRow[]> {
  const [detected] = await query(DETECT, []);
  if (!detected?.present) return [];
  return (await query(PARTITIONS, [])) as unknown as PartitionRow[];
}
