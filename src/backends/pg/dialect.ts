/** How PostgreSQL writes the neutral SQL fragments: `$n` placeholders, escape string literals. */
import { render, type Dialect, type Rendered, type Sql } from '../../sql/fragment.js';

/**
 * A value known at compile time as SQL text: an escape string literal (`E'...'`, so
 * its meaning does not depend on standard_conforming_strings), NULL, or an array of
 * them. Inlined rather than bound, the planner sees it: a partial index on
 * `published` is usable for `published = true` even in a generic plan.
 */
function literal(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (Array.isArray(v)) return v.length === 0 ? "'{}'" : `ARRAY[${v.map(literal).join(', ')}]`;
  const text = typeof v === 'string' ? v : String(v);
  // A NUL byte would end the statement text on the wire ("query execution failed"); as the
  // escape \000 PostgreSQL refuses it as text does a bound value (22021, a data exception).
  return "E'" + text.replace(/\\/g, '\\\\').replace(/'/g, "''").replace(/\0/g, '\\000') + "'";
}

/**
 * A list of texts (or nulls) in PostgreSQL's array input syntax (`{1,2,3}`), read by a cast to
 * the array type: what a lifted list literal is as a synthetic variable, which a cohort's JSON
 * holds as text. An element is quoted when the syntax needs it (empty, blank, a delimiter, a
 * quote or backslash, or the word NULL).
 */
export function arrayText(values: readonly (string | null)[]): string {
  const element = (v: string | null) => (v === null ? 'NULL' : v !== '' && !/[{}",\\\s]/.test(v) && v.toUpperCase() !== 'NULL' ? v : `"${v.replace(/["\\]/g, '\\$&')}"`);
  return `{${values.map(element).join(',')}}`;
}

export const PG_DIALECT: Dialect = { placeholder: (n) => `$${n}`, literal };

export const renderPg = (s: Sql): Rendered => render(s, PG_DIALECT);
