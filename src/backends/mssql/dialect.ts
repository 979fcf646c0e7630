/**
 * How SQL Server writes the neutral SQL fragments: `@p1`, `@p2`... placeholders, identifiers
 * in brackets through `bracket` (the one quoting function), string literals as N'...'.
 * Statements bind every value; `literal` only writes the fixed text the translator itself
 * chooses (JSON paths of session variables).
 */
import { raw, render, type Dialect, type Rendered, type Sql } from '../../sql/fragment.js';

/** An identifier, bracket-quoted (`]` doubled). */
export const bracket = (name: string): Sql => raw(`[${name.replace(/]/g, ']]')}]`);

export const bracketQualified = (schema: string, name: string): Sql => raw(`${bracket(schema).parts[0] as string}.${bracket(name).parts[0] as string}`);

function literal(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return `N'${String(v).replace(/'/g, "''")}'`;
}

export const MSSQL_DIALECT: Dialect = { placeholder: (n) => `@p${n}`, literal };

/** Renders with every literal of the query and the metadata bound as a parameter (`query` literals lifted). */
export const renderMssql = (s: Sql): Rendered => render(s, MSSQL_DIALECT, true);
