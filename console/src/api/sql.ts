/**
 * SQL text the console writes for `run_sql`: every identifier quoted and every literal escaped
 * here, and the one way to read rows back (a read-only query whose rows come as one JSON value).
 */
import { runSql } from './client';
import type { QualifiedTable } from './metadata';

/** A SQL string literal. */
export const sqlLiteral = (s: string): string => `'${s.replace(/'/g, "''")}'`;

/** A quoted SQL identifier. */
export const sqlIdent = (s: string): string => `"${s.replace(/"/g, '""')}"`;

/** `"schema"."name"`. */
export const sqlTable = (t: QualifiedTable): string => `${sqlIdent(t.schema)}.${sqlIdent(t.name)}`;

/** The rows of `select` as JSON objects (run_sql answers text; one json_agg cell keeps the types). */
export async function readJson<T>(source: string, select: string): Promise<T[]> {
  const r = await runSql(`SELECT coalesce(json_agg(q), '[]'::json) FROM (${select}) q`, { source, read_only: true });
  const cell = r.result?.[1]?.[0];
  return cell ? (JSON.parse(cell) as T[]) : [];
}
