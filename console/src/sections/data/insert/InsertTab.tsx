/**
 * "Insert row", as the well-known console's: one field per column, "Save" inserts the row
 * (`insert` on `/v2/query`, returning it) and shows it; the button then reads "Insert again" and
 * inserts the same values once more. A field is a value, NULL or the column's default (`RowForm`).
 */
import { useState } from 'react';
import { query } from '../../../api/client';
import type { QualifiedTable } from '../../../api/metadata';
import { ErrorNote } from '../../../ui/ErrorNote';
import { useAction } from '../../../ui/useAction';
import type { Column } from '../../../api/catalog';
import { valueText, WithColumns } from '../columns';
import { RowForm, rowOf, type Field } from './RowForm';

function InsertForm({ source, table, columns }: { source: string; table: QualifiedTable; columns: Column[] }) {
  const [inserted, setInserted] = useState<Record<string, unknown> | null>(null);
  const [formKey, setFormKey] = useState(0);
  const insert = useAction(async (fields: Record<string, Field>) => {
    const row = rowOf(columns, fields);
    const r = await query<{ returning: Record<string, unknown>[] }>('insert', { source, table, objects: [row], returning: columns.map((c) => c.name) });
    setInserted(r.returning[0] ?? null);
  });
  return (
    <>
      <RowForm key={formKey} columns={columns} submitLabel={inserted ? 'Insert again' : 'Save'} busy={insert.busy} onSubmit={insert.run}>
        <button type="button" className="secondary" onClick={() => (setFormKey((k) => k + 1), setInserted(null))}>
          Clear
        </button>
      </RowForm>
      <ErrorNote error={insert.error} />
      {inserted && (
        <section aria-label="Inserted row">
          <p className="notice" role="status">
            Inserted!
          </p>
          <table>
            <thead>
              <tr>
                {Object.keys(inserted).map((k) => (
                  <th key={k}>{k}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              <tr>
                {Object.entries(inserted).map(([k, v]) => (
                  <td key={k}>{valueText(v) ?? <em className="null">NULL</em>}</td>
                ))}
              </tr>
            </tbody>
          </table>
        </section>
      )}
    </>
  );
}

export const InsertTab = ({ source, table }: { source: string; table: QualifiedTable }) => (
  <WithColumns source={source} table={table}>
    {(columns) => <InsertForm source={source} table={table} columns={columns} />}
  </WithColumns>
);
