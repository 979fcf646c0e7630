/**
 * The database's side of what the permission editor offers: each table's columns with their
 * types, the foreign keys that tell where an object relationship leads, and what the functions
 * of computed fields return. Read with read-only `run_sql` calls on the source, as the
 * well-known engine's console reads its tables.
 */
import { runSql } from '../../../api/client';
import { tableKey, type QualifiedTable, type Relationship, type TableEntry } from '../../../api/metadata';
import { useLoad } from '../../../ui/useLoad';

export interface Column {
  name: string;
  /** As PostgreSQL prints it (`integer`, `text[]`). */
  type: string;
  /** pg_type.typcategory: S string, N numeric, B boolean, A array, U user-defined (jsonb), … */
  category: string;
  typeName: string;
}

interface ForeignKey {
  from: QualifiedTable;
  columns: string[];
  to: QualifiedTable;
}

export interface Catalog {
  columnsOf(table: QualifiedTable): Column[];
  /** The scalar computed fields of a tracked table, typed as their function returns (those returning rows are left out). */
  scalarComputedFields(entry: TableEntry | undefined): Column[];
  /** The table a relationship of `table` leads to, when it can be told. */
  targetOf(table: QualifiedTable, relationship: Relationship): QualifiedTable | undefined;
}

const COLUMNS_SQL = `SELECT n.nspname, c.relname, a.attname, format_type(a.atttypid, a.atttypmod), t.typcategory, t.typname
FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_type t ON t.oid = a.atttypid
WHERE a.attnum > 0 AND NOT a.attisdropped AND c.relkind IN ('r', 'v', 'm', 'f', 'p')
  AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_toast%'
ORDER BY n.nspname, c.relname, a.attnum`;

const FOREIGN_KEYS_SQL = `SELECT sn.nspname, sc.relname, tn.nspname, tc.relname,
  (SELECT json_agg(a.attname ORDER BY k.i) FROM unnest(f.conkey) WITH ORDINALITY AS k(attnum, i) JOIN pg_attribute a ON a.attrelid = f.conrelid AND a.attnum = k.attnum)
FROM pg_constraint f JOIN pg_class sc ON sc.oid = f.conrelid JOIN pg_namespace sn ON sn.oid = sc.relnamespace
  JOIN pg_class tc ON tc.oid = f.confrelid JOIN pg_namespace tn ON tn.oid = tc.relnamespace
WHERE f.contype = 'f'`;

/**
 * The return types of the functions that may be computed fields (one argument is a table's row),
 * which leaves out extensions' thousands: a composite type or a set means rows of a table.
 */
const FUNCTIONS_SQL = `SELECT n.nspname, p.proname, format_type(p.prorettype, NULL), t.typcategory, t.typname, (p.proretset OR t.typtype = 'c')::text
FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace JOIN pg_type t ON t.oid = p.prorettype
WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')
  AND EXISTS (SELECT 1 FROM unnest(p.proargtypes) AS a(type) JOIN pg_class c ON c.reltype = a.type)`;

const rows = (r: { result: (string | null)[][] | null }) => (r.result ?? []).slice(1).map((row) => row.map((v) => v ?? ''));

async function readCatalog(source: string): Promise<Catalog> {
  const read = (sql: string) => runSql(sql, { source, read_only: true });
  const [columnRows, keyRows, functionRows] = await Promise.all([read(COLUMNS_SQL), read(FOREIGN_KEYS_SQL), read(FUNCTIONS_SQL)]);
  const columns = new Map<string, Column[]>();
  for (const [schema, table, name, type, category, typeName] of rows(columnRows)) {
    const k = tableKey({ schema: schema!, name: table! });
    columns.set(k, [...(columns.get(k) ?? []), { name: name!, type: type!, category: category!, typeName: typeName! }]);
  }
  const foreignKeys: ForeignKey[] = rows(keyRows).map(([fs, fn, ts, tn, cols]) => ({
    from: { schema: fs!, name: fn! },
    to: { schema: ts!, name: tn! },
    columns: JSON.parse(cols!) as string[],
  }));
  // Overloaded functions share a name: the first one read stands for them all.
  const functions = new Map<string, Column & { returnsRows: boolean }>();
  for (const [schema, name, type, category, typeName, returnsRows] of rows(functionRows)) {
    const k = tableKey({ schema: schema!, name: name! });
    if (!functions.has(k)) functions.set(k, { name: name!, type: type!, category: category!, typeName: typeName!, returnsRows: returnsRows === 'true' });
  }
  return {
    columnsOf: (table) => columns.get(tableKey(table)) ?? [],
    scalarComputedFields: (entry) =>
      (entry?.computed_fields ?? []).flatMap((cf) => {
        const fn = asTable((cf.definition as { function?: unknown } | null)?.function);
        const returned = fn && functions.get(tableKey(fn));
        return returned && !returned.returnsRows ? [{ name: cf.name, type: returned.type, category: returned.category, typeName: returned.typeName }] : [];
      }),
    targetOf: (table, relationship) => relationshipTarget(table, relationship, foreignKeys),
  };
}

const asTable = (v: unknown): QualifiedTable | undefined => {
  if (typeof v === 'string') return { schema: 'public', name: v };
  if (typeof v === 'object' && v !== null && typeof (v as QualifiedTable).name === 'string') return { schema: (v as QualifiedTable).schema ?? 'public', name: (v as QualifiedTable).name };
  return undefined;
};

function relationshipTarget(table: QualifiedTable, relationship: Relationship, foreignKeys: ForeignKey[]): QualifiedTable | undefined {
  const { foreign_key_constraint_on: fk, manual_configuration: manual } = relationship.using;
  if (manual) return asTable((manual as { remote_table?: unknown }).remote_table);
  // An array relationship, or an object one through the other table's key: `{table, columns}`.
  if (typeof fk === 'object' && fk !== null && !Array.isArray(fk)) return asTable((fk as { table?: unknown }).table);
  const own = typeof fk === 'string' ? [fk] : Array.isArray(fk) ? (fk as string[]) : [];
  const found = foreignKeys.find((f) => tableKey(f.from) === tableKey(table) && f.columns.length === own.length && f.columns.every((c, i) => c === own[i]));
  return found?.to;
}

export const relationshipsOf = (entry: TableEntry | undefined): Relationship[] => [...(entry?.object_relationships ?? []), ...(entry?.array_relationships ?? [])];

/** The source's catalog, read when the tab opens. */
export const useCatalog = (source: string) => useLoad(() => readCatalog(source), [source]);
