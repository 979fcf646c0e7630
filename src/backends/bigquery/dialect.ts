/**
 * How BigQuery (GoogleSQL) writes the neutral SQL fragments: named parameters `@p1`, `@p2`...,
 * identifiers in backticks through `backtick` (the one quoting function), string literals
 * only for the translator's own fixed text (JSON paths of session variables).
 */
import { raw, render, type Dialect, type Rendered, type Sql } from '../../sql/fragment.js';

export const backtick = (name: string): Sql => raw('`' + name.replace(/\\/g, '\\\\').replace(/`/g, '\\`') + '`');

export const backtickQualified = (dataset: string, name: string): Sql => raw(`${backtick(dataset).parts[0] as string}.${backtick(name).parts[0] as string}`);

function literal(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return `'${String(v).replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

export const BIGQUERY_DIALECT: Dialect = { placeholder: (n) => `@p${n}`, literal };

/** Renders with every literal of the query and the metadata bound as a parameter. */
export const renderBigQuery = (s: Sql): Rendered => render(s, BIGQUERY_DIALECT, true);
