/** Whether a table can back a GraphQL enum (spec: `pg_set_table_is_enum`), as the well-known engine decides. */
import type { CatalogTable } from '../catalog/types.js';

export function enumTableProblems(t: CatalogTable): string[] {
  const problems: string[] = [];
  const pk = t.primaryKey;
  if (!pk) {
    problems.push('the table must have a primary key');
  } else if (pk.columns.length !== 1) {
    problems.push(`the table’s primary key must not span multiple columns (${pk.columns.map((c) => JSON.stringify(c)).join(', ')})`);
  } else {
    const col = t.columns.find((c) => c.name === pk.columns[0]);
    if (col && col.type.traits.family !== 'text') {
      problems.push(`the table’s primary key (${JSON.stringify(col.name)}) must have type "text", not type ${JSON.stringify(col.type.display)}`);
    }
  }
  if (t.columns.length > 2) {
    const names = t.columns.map((c) => c.name).sort();
    problems.push(`the table must have exactly one primary key and optionally one comment column, not ${t.columns.length} columns (${names.join(', ')})`);
  }
  return problems;
}
