/** A table's columns, read from its source's catalog when a tab opens. */
import type { QualifiedTable } from '../../api/metadata';
import { useLoad } from '../../ui/useLoad';
import { readColumns } from './catalog';

export const useColumns = (source: string, table: QualifiedTable) => useLoad(() => readColumns(source, table), [source, table.schema, table.name]);

/** A row's value as text: JSON for what is not a string; `null` for NULL. */
export const valueText = (v: unknown): string | null => (v === null || v === undefined ? null : typeof v === 'string' ? v : JSON.stringify(v));
