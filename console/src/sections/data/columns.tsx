/** A table's columns, read from its source's catalog when a tab opens; and how a row's values read. */
import type { ReactNode } from 'react';
import type { QualifiedTable } from '../../api/metadata';
import { ErrorNote } from '../../ui/ErrorNote';
import { useLoad } from '../../ui/useLoad';
import { readColumns, type Column } from '../../api/catalog';

/** Renders `children` with the table's columns once read (the failure, or "Loading…", until then), and a way to read them again. */
export function WithColumns({ source, table, children }: { source: string; table: QualifiedTable; children: (columns: Column[], reload: () => Promise<void>) => ReactNode }) {
  const columns = useLoad(() => readColumns(source, table), [source, table.schema, table.name]);
  if (columns.data) return children(columns.data, columns.reload);
  return columns.error ? <ErrorNote error={columns.error} /> : <p className="loading">Loading…</p>;
}

/** A row's value as text: JSON for what is not a string; `null` for NULL. */
export const valueText = (v: unknown): string | null => (v === null || v === undefined ? null : typeof v === 'string' ? v : JSON.stringify(v));
