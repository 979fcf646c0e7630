/** Tracked tables as the options of a select (`schema.name`), and back. */
import { sourceOf, tableKey, type Metadata, type QualifiedTable } from '../../../api/metadata';

export const trackedTables = (m: Metadata | null, source: string): QualifiedTable[] => (sourceOf(m, source)?.tables ?? []).map((t) => t.table);

export const tableOptions = (tables: QualifiedTable[]) => [{ value: '', label: '(choose a table)' }, ...tables.map((t) => ({ value: tableKey(t), label: tableKey(t) }))];

export const tableByKey = (tables: QualifiedTable[], key: string): QualifiedTable | undefined => tables.find((t) => tableKey(t) === key);
