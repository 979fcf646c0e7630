/** What the builder knows of the source: its tracked tables, their columns and relationships. */
import { sameTable, type QualifiedTable, type TableEntry } from '../../../../api/metadata';
import type { Catalog } from '../catalog';

export interface BuilderScope {
  catalog: Catalog;
  /** The tracked tables of the source (`_exists` may name any of them). */
  tables: TableEntry[];
}

export const entryIn = (scope: BuilderScope, table: QualifiedTable): TableEntry | undefined =>
  scope.tables.find((t) => sameTable(t.table, table));


/** Labels name a control by where it is in the expression (`_and 1 › author › id`), so each is unique. */
export const labelIn = (where: string[]) => (where.length ? ` in ${where.join(' › ')}` : '');
