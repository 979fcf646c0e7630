/** The browsed rows with their "Edit" and "Delete" buttons; editing opens the row's form below it. */
import { Fragment, useState } from 'react';
import { query } from '../../../api/client';
import type { QualifiedTable } from '../../../api/metadata';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { ErrorNote } from '../../../ui/ErrorNote';
import { useAction } from '../../../ui/useAction';
import type { Column } from '../../../api/catalog';
import { RowForm, rowOf, type Field } from '../insert/RowForm';
import { valueText } from '../columns';

export type Row = Record<string, unknown>;

/** The `where` that finds the row again: its primary key, or all its columns. */
function identity(columns: Column[], row: Row): Record<string, unknown> {
  const key = columns.some((c) => c.primary) ? columns.filter((c) => c.primary) : columns;
  return Object.fromEntries(key.map((c) => [c.name, row[c.name] === null ? { _is_null: true } : { _eq: row[c.name] }]));
}

function RowView({ source, table, columns, row, onChanged }: { source: string; table: QualifiedTable; columns: Column[]; row: Row; onChanged: () => unknown }) {
  const [editing, setEditing] = useState(false);
  const initial = Object.fromEntries(columns.map((c) => [c.name, valueText(row[c.name])]));
  const save = useAction(async (fields: Record<string, Field>) => {
    // Only what changed is set.
    const changed = columns.filter((c) => {
      const f = fields[c.name];
      return f !== undefined && (f.mode === 'null' ? initial[c.name] !== null : f.text !== initial[c.name]);
    });
    if (changed.length > 0) await query('update', { source, table, where: identity(columns, row), $set: rowOf(changed, fields) });
    setEditing(false);
    await onChanged();
  });
  const remove = useAction(async () => {
    await query('delete', { source, table, where: identity(columns, row) });
    await onChanged();
  });
  return (
    <Fragment>
      <tr>
        <td>
          <div className="row">
            <button type="button" className="secondary" aria-expanded={editing} onClick={() => setEditing(!editing)}>
              Edit
            </button>
            <ConfirmButton label="Delete" question="Delete this row?" busy={remove.busy} onConfirm={() => remove.run()} />
          </div>
          <ErrorNote error={remove.error} />
        </td>
        {columns.map((c) => {
          const v = valueText(row[c.name]);
          return <td key={c.name}>{v === null ? <em className="null">NULL</em> : v}</td>;
        })}
      </tr>
      {editing && (
        <tr>
          <td colSpan={columns.length + 1}>
            <RowForm columns={columns} initial={initial} submitLabel="Save row" busy={save.busy} onSubmit={save.run}>
              <button type="button" className="secondary" onClick={() => setEditing(false)}>
                Cancel
              </button>
            </RowForm>
            <ErrorNote error={save.error} />
          </td>
        </tr>
      )}
    </Fragment>
  );
}

export function RowsTable({ source, table, columns, rows, onChanged }: { source: string; table: QualifiedTable; columns: Column[]; rows: Row[]; onChanged: () => unknown }) {
  const key = columns.filter((c) => c.primary);
  return (
    <table aria-label="Rows">
      <thead>
        <tr>
          <th>Actions</th>
          {columns.map((c) => (
            <th key={c.name}>{c.name}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, i) => (
          <RowView key={key.length > 0 ? key.map((c) => valueText(row[c.name])).join('\u0000') : i} source={source} table={table} columns={columns} row={row} onChanged={onChanged} />
        ))}
      </tbody>
    </table>
  );
}
