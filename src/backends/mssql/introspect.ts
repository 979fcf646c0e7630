/**
 * SQL Server's catalog (sys.objects, sys.columns, sys.key_constraints, sys.foreign_keys) read
 * into the neutral `DatabaseCatalog`: the SQL Server schema is the schema; a type keeps its SQL
 * Server name, its text with length or precision in `display` (the translator casts parameters
 * to it), and its neutral traits. Reading is I/O (`introspectMssql`), mapping is pure
 * (`mssqlCatalog`).
 */
import type { CatalogColumn, CatalogTable, CatalogType, DatabaseCatalog, TypeTraits } from '../../catalog/types.js';
import { literal, typeTraits } from '../../catalog/type-traits.js';
import type { Row } from './pool.js';

export const TABLES = `SELECT o.object_id AS oid, s.name AS [schema], o.name AS name, o.type AS type, CAST(ep.value AS nvarchar(max)) AS comment
FROM sys.objects AS o JOIN sys.schemas AS s ON s.schema_id = o.schema_id
LEFT JOIN sys.extended_properties AS ep ON ep.major_id = o.object_id AND ep.minor_id = 0 AND ep.class = 1 AND ep.name = 'MS_Description'
WHERE o.type IN ('U', 'V') AND o.is_ms_shipped = 0`;

export const COLUMNS = `SELECT c.object_id AS oid, c.name AS name, c.column_id AS position, t.name AS type, c.max_length AS max_length,
  c.precision AS precision, c.scale AS scale, c.is_nullable AS nullable, c.is_identity AS is_identity, c.is_computed AS is_computed,
  dc.definition AS [default], CAST(ep.value AS nvarchar(max)) AS comment
FROM sys.columns AS c JOIN sys.types AS t ON t.user_type_id = c.user_type_id
JOIN sys.objects AS o ON o.object_id = c.object_id AND o.type IN ('U', 'V') AND o.is_ms_shipped = 0
LEFT JOIN sys.default_constraints AS dc ON dc.object_id = c.default_object_id
LEFT JOIN sys.extended_properties AS ep ON ep.major_id = c.object_id AND ep.minor_id = c.column_id AND ep.class = 1 AND ep.name = 'MS_Description'`;

export const KEYS = `SELECT kc.parent_object_id AS oid, kc.name AS name, kc.type AS type, col.name AS [column], ic.key_ordinal AS ordinal
FROM sys.key_constraints AS kc
JOIN sys.index_columns AS ic ON ic.object_id = kc.parent_object_id AND ic.index_id = kc.unique_index_id
JOIN sys.columns AS col ON col.object_id = ic.object_id AND col.column_id = ic.column_id`;

export const FOREIGN_KEYS = `SELECT fk.parent_object_id AS oid, fk.name AS name, pc.name AS [column], rs.name AS ref_schema, ro.name AS ref_table,
  rc.name AS ref_column, fkc.constraint_column_id AS ordinal
FROM sys.foreign_keys AS fk JOIN sys.foreign_key_columns AS fkc ON fkc.constraint_object_id = fk.object_id
JOIN sys.columns AS pc ON pc.object_id = fkc.parent_object_id AND pc.column_id = fkc.parent_column_id
JOIN sys.objects AS ro ON ro.object_id = fkc.referenced_object_id JOIN sys.schemas AS rs ON rs.schema_id = ro.schema_id
JOIN sys.columns AS rc ON rc.object_id = fkc.referenced_object_id AND rc.column_id = fkc.referenced_column_id`;

export const CHECKS = `SELECT cc.parent_object_id AS oid, cc.name AS name FROM sys.check_constraints AS cc`;

export const VERSION = `SELECT CAST(SERVERPROPERTY('ProductMajorVersion') AS int) AS version`;

const INT = (decoder: string, wide = false) => typeTraits(wide ? 'bigint' : 'Int', 'numeric', { wide, literal: literal('integer', decoder) });
const DECIMAL = typeTraits('numeric', 'numeric', { wide: true, literal: literal('number', 'Scientific') });
const STRING = typeTraits('String', 'text', { literal: literal('string', 'Text') });
const BINARY = typeTraits('bytea', 'other');
const DATETIME = typeTraits('timestamp', 'other', { literal: literal('string', 'LocalTime') });

/**
 * SQL Server's types in the neutral vocabulary. The GraphQL scalars are those the engine gave
 * them when SQL Server came (after PostgreSQL's: `bigint`, `numeric`, `timestamp`, `uuid`), except
 * `datetimeoffset`, named as SQL Server names it as the well-known engine's SQL Server schema does.
 */
const TYPES: Record<string, TypeTraits> = {
  bit: typeTraits('Boolean', 'boolean', { literal: literal('boolean', 'Bool') }),
  tinyint: INT('Int16'),
  smallint: INT('Int16'),
  int: INT('Int32'),
  bigint: INT('Int64', true),
  decimal: DECIMAL,
  numeric: DECIMAL,
  money: DECIMAL,
  smallmoney: DECIMAL,
  float: typeTraits('Float', 'numeric', { wide: true, literal: literal('number', 'Double') }),
  real: typeTraits('Float', 'numeric', { literal: literal('number', 'Float') }),
  char: STRING,
  nchar: STRING,
  varchar: STRING,
  nvarchar: STRING,
  text: STRING,
  ntext: STRING,
  sysname: STRING,
  date: typeTraits('date', 'other', { literal: literal('string', 'Day') }),
  time: typeTraits('time', 'other', { literal: literal('string', 'TimeOfDay') }),
  datetime: DATETIME,
  datetime2: DATETIME,
  smalldatetime: DATETIME,
  datetimeoffset: typeTraits('datetimeoffset', 'other', { literal: literal('string', 'UTCTime') }),
  uniqueidentifier: typeTraits('uuid', 'other', { literal: literal('string', 'UUID') }),
  binary: BINARY,
  varbinary: BINARY,
  image: BINARY,
  xml: typeTraits('xml', 'other', { comparable: false }),
};

/** The column's type as SQL Server writes it in a CAST (`nvarchar(max)`, `decimal(10,2)`, `int`). */
export function mssqlTypeText(name: string, maxLength: number, precision: number, scale: number): string {
  if (['varchar', 'char', 'varbinary', 'binary'].includes(name)) return `${name}(${maxLength < 0 ? 'max' : maxLength})`;
  if (['nvarchar', 'nchar'].includes(name)) return `${name}(${maxLength < 0 ? 'max' : maxLength / 2})`;
  if (name === 'decimal' || name === 'numeric') return `${name}(${precision},${scale})`;
  return name;
}

export function catalogType(name: string, maxLength: number, precision: number, scale: number): CatalogType {
  return { schema: 'sys', name, display: mssqlTypeText(name, maxLength, precision, scale), kind: 'base', element: null, traits: TYPES[name] ?? typeTraits(name, 'other') };
}

export interface MssqlCatalogRows {
  version: number;
  tables: Row[];
  columns: Row[];
  keys: Row[];
  foreignKeys: Row[];
  checks: Row[];
}

const byOid = (rows: Row[]) => {
  const out = new Map<number, Row[]>();
  for (const r of rows) {
    const k = Number(r.oid);
    out.set(k, [...(out.get(k) ?? []), r]);
  }
  return out;
};
const ordered = (rows: Row[]) => [...rows].sort((a, b) => Number(a.ordinal) - Number(b.ordinal));
const groupByName = (rows: Row[]) => {
  const out = new Map<string, Row[]>();
  for (const r of rows) out.set(String(r.name), [...(out.get(String(r.name)) ?? []), r]);
  return [...out].map(([name, rs]) => ({ name, rows: ordered(rs) }));
};

/** The catalog rows of one SQL Server database as the neutral catalog. */
export function mssqlCatalog(rows: MssqlCatalogRows): DatabaseCatalog {
  const columns = byOid(rows.columns);
  const keys = byOid(rows.keys);
  const fks = byOid(rows.foreignKeys);
  const checks = byOid(rows.checks);
  const tables = rows.tables.map((t): CatalogTable => {
    const oid = Number(t.oid);
    const view = t.type === 'V' || (typeof t.type === 'string' && t.type.trim() === 'V');
    const cols = (columns.get(oid) ?? [])
      .map(
        (c): CatalogColumn => ({
          name: String(c.name),
          position: Number(c.position),
          type: catalogType(String(c.type), Number(c.max_length), Number(c.precision), Number(c.scale)),
          nullable: Boolean(c.nullable),
          default: c.default === null || c.default === undefined ? null : String(c.default),
          isIdentity: Boolean(c.is_identity),
          isGenerated: Boolean(c.is_computed),
          // As upstream's SQL Server backend: neither insertable nor updatable.
          ...(c.is_identity || c.is_computed ? { immutable: true as const } : {}),
          comment: c.comment === null || c.comment === undefined ? null : String(c.comment),
        }),
      )
      .sort((a, b) => a.position - b.position);
    const constraints = groupByName(keys.get(oid) ?? []).map((k) => ({ name: k.name, columns: k.rows.map((r) => String(r.column)), primary: String(k.rows[0]!.type).trim() === 'PK' }));
    const pk = constraints.find((k) => k.primary);
    const foreignKeys = groupByName(fks.get(oid) ?? []).map((f) => ({
      name: f.name,
      columns: f.rows.map((r) => String(r.column)),
      refTable: { schema: String(f.rows[0]!.ref_schema), name: String(f.rows[0]!.ref_table) },
      refColumns: f.rows.map((r) => String(r.ref_column)),
    }));
    return {
      oid,
      schema: String(t.schema),
      name: String(t.name),
      kind: view ? 'view' : 'table',
      comment: t.comment === null || t.comment === undefined ? null : String(t.comment),
      columns: cols,
      primaryKey: pk ? { name: pk.name, columns: pk.columns } : null,
      uniqueConstraints: constraints.filter((k) => !k.primary).map((k) => ({ name: k.name, columns: k.columns })),
      foreignKeys,
      constraintNames: [...constraints.map((k) => k.name), ...foreignKeys.map((f) => f.name), ...(checks.get(oid) ?? []).map((c) => String(c.name))],
      insertable: !view,
      updatable: !view,
      deletable: !view,
    };
  });
  tables.sort((a, b) => (a.schema === b.schema ? a.name.localeCompare(b.name) : a.schema.localeCompare(b.schema)));
  return { serverVersion: rows.version, tables, functions: [], enumTypes: [], baseTypes: Object.keys(TYPES).map((name) => catalogType(name, -1, 0, 0)) };
}

/** Reads the catalog with `run` (one statement at a time on one connection). */
export async function introspectMssql(run: (text: string) => Promise<Row[]>): Promise<DatabaseCatalog> {
  const [version] = await run(VERSION);
  return mssqlCatalog({
    version: Number(version?.version ?? 0),
    tables: await run(TABLES),
    columns: await run(COLUMNS),
    keys: await run(KEYS),
    foreignKeys: await run(FOREIGN_KEYS),
    checks: await run(CHECKS),
  });
}
