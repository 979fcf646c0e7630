/**
 * Which relationships a distributed database can join (Citus, as the well-known engine's
 * compatibility table has it): between local and reference tables both ways; from a
 * distributed table to a reference table (object relationships only) and to another
 * distributed table on both tables' distribution columns; nothing from a local or
 * reference table to a distributed one, nor from a distributed table to a local one.
 * Tables without distribution (a plain PostgreSQL) are local, so nothing is refused there.
 */
import type { CatalogTable, TableDistribution } from '../catalog/types.js';
import { showTable } from './names.js';
import type { RelationshipKind } from './resolve/types.js';

const LOCAL: TableDistribution = { kind: 'local', column: null };
const placement = (t: CatalogTable) => t.distribution ?? LOCAL;

/** Why the relationship `from` -> `to` over `mapping` ([from column, to column]) cannot be joined, or null. */
export function distributionRefusal(from: CatalogTable, to: CatalogTable, kind: RelationshipKind, mapping: readonly (readonly [string, string])[]): string | null {
  const a = placement(from);
  const b = placement(to);
  const pair = `${a.kind} table ${JSON.stringify(showTable(from))} to ${b.kind} table ${JSON.stringify(showTable(to))}`;
  if (a.kind !== 'distributed') {
    return b.kind === 'distributed' ? `relationships from a ${pair} are not supported on a distributed database` : null;
  }
  if (b.kind === 'local') return `relationships from a ${pair} are not supported on a distributed database`;
  if (b.kind === 'reference') return kind === 'array' ? `only object relationships are supported from a ${pair}` : null;
  const onColumns = a.column !== null && b.column !== null && mapping.some(([l, r]) => l === a.column && r === b.column);
  return onColumns ? null : `a relationship between distributed tables must join their distribution columns (${JSON.stringify(a.column)} to ${JSON.stringify(b.column)})`;
}

/** Why an event trigger cannot be defined on `table`, or null: the distributed database propagates no triggers on its distributed and reference tables. */
export function eventTriggerRefusal(table: CatalogTable): string | null {
  const kind = placement(table).kind;
  return kind === 'local' ? null : `event triggers are not supported on ${kind} table ${JSON.stringify(showTable(table))}`;
}
