/**
 * The table's columns, as the well-known console's "Modify" lists them, each to rename
 * (`ALTER TABLE … RENAME COLUMN`: the engine carries the new name into the metadata) or remove
 * (`ALTER TABLE … DROP COLUMN`, what the metadata holds on it cascaded on request), and a form
 * to add one (`ALTER TABLE … ADD COLUMN`): its name, type, nullability, uniqueness and default.
 * The type and the default are SQL as typed (`timestamptz`, `now()`), as that console takes them.
 */
import { useId, useState, type FormEvent } from 'react';
import { runSql } from '../../../api/client';
import { useMetadata, type QualifiedTable } from '../../../api/metadata';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { ErrorNote } from '../../../ui/ErrorNote';
import { Checkbox, TextField } from '../../../ui/forms';
import { useAction } from '../../../ui/useAction';
import type { Column } from '../../../api/catalog';
import { sqlIdent, sqlTable } from '../../../api/sql';
import { columnDefinition, COMMON_TYPES } from './columnSql';


function ColumnRow({ source, table, column, onChanged }: { source: string; table: QualifiedTable; column: Column; onChanged: () => Promise<void> }) {
  const { refresh } = useMetadata();
  const [cascade, setCascade] = useState(false);
  const [renaming, setRenaming] = useState(false);
  const [newName, setNewName] = useState(column.name);
  const rename = useAction(async () => {
    await runSql(`ALTER TABLE ${sqlTable(table)} RENAME COLUMN ${sqlIdent(column.name)} TO ${sqlIdent(newName.trim())}`, { source });
    await Promise.all([onChanged(), refresh()]);
  });
  const submitName = (e: FormEvent) => {
    e.preventDefault();
    void rename.run();
  };
  const drop = useAction(async () => {
    await runSql(`ALTER TABLE ${sqlTable(table)} DROP COLUMN ${sqlIdent(column.name)}`, { source, cascade });
    await Promise.all([onChanged(), refresh()]);
  });
  return (
    <tr>
      <td>{column.name}</td>
      <td>{column.type}</td>
      <td>{column.nullable ? 'yes' : 'no'}</td>
      <td>{column.default ?? ''}</td>
      <td>{column.primary ? 'yes' : ''}</td>
      <td>
        <div className="row">
          <button type="button" className="secondary" aria-expanded={renaming} aria-label={`Rename column ${column.name}`} onClick={() => setRenaming(!renaming)}>
            Rename
          </button>
          <ConfirmButton label={`Remove column ${column.name}`} question={`Remove the column ${column.name} and its values?`} confirmLabel="Yes, remove column" busy={drop.busy} onConfirm={() => drop.run()}>
            <Checkbox label="Cascade metadata" checked={cascade} onChange={(e) => setCascade(e.target.checked)} />
          </ConfirmButton>
        </div>
        {renaming && (
          <form className="row" onSubmit={submitName} aria-label={`Rename column ${column.name}`}>
            <TextField label={`New name of column ${column.name}`} value={newName} onChange={(e) => setNewName(e.target.value)} required />
            <button type="submit" disabled={rename.busy}>
              Save column name
            </button>
          </form>
        )}
        <ErrorNote error={rename.error} />
        <ErrorNote error={drop.error} />
      </td>
    </tr>
  );
}

export function ColumnsEditor({ source, table, columns, onChanged }: { source: string; table: QualifiedTable; columns: Column[]; onChanged: () => Promise<void> }) {
  const { refresh } = useMetadata();
  const typesId = useId();
  const [name, setName] = useState('');
  const [type, setType] = useState('');
  const [nullable, setNullable] = useState(true);
  const [unique, setUnique] = useState(false);
  const [fallback, setFallback] = useState('');
  const add = useAction(async () => {
    await runSql(`ALTER TABLE ${sqlTable(table)} ADD COLUMN ${columnDefinition({ name, type, nullable, unique, default: fallback })}`, { source });
    await Promise.all([onChanged(), refresh()]);
    setName('');
    setType('');
    setFallback('');
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void add.run();
  };
  return (
    <>
      <h3>Columns</h3>
      <table aria-label="Columns">
        <thead>
          <tr>
            <th>Column</th>
            <th>Type</th>
            <th>Nullable</th>
            <th>Default</th>
            <th>Primary key</th>
            <th>Actions</th>
          </tr>
        </thead>
        <tbody>
          {columns.map((c) => (
            <ColumnRow key={c.name} source={source} table={table} column={c} onChanged={onChanged} />
          ))}
        </tbody>
      </table>
      <form className="row" onSubmit={submit} aria-label="Add a new column">
        <TextField label="Column name" value={name} onChange={(e) => setName(e.target.value)} required />
        <TextField label="Column type" value={type} onChange={(e) => setType(e.target.value)} list={typesId} required />
        <datalist id={typesId}>
          {COMMON_TYPES.map((t) => (
            <option key={t} value={t} />
          ))}
        </datalist>
        <TextField label="Default value (SQL)" value={fallback} onChange={(e) => setFallback(e.target.value)} placeholder="e.g. now()" />
        <Checkbox label="Nullable" checked={nullable} onChange={(e) => setNullable(e.target.checked)} />
        <Checkbox label="Unique" checked={unique} onChange={(e) => setUnique(e.target.checked)} />
        <button type="submit" disabled={add.busy}>
          Add column
        </button>
      </form>
      <ErrorNote error={add.error} />
    </>
  );
}
