/**
 * `/data/<source>/schema/<schema>/table/add`: a new table, as the well-known console's "Add a new
 * table" form asks for it: its name, its columns (name, type, nullable, unique, default), its
 * primary key and a comment. "Add Table" creates it (`CREATE TABLE` through `run_sql`), tracks
 * it (`pg_track_table`) and opens its "Modify" tab.
 */
import { useId, useState, type FormEvent } from 'react';
import { navigate, pathOf } from '../../../app/router';
import { metadata as callMetadata, runSql } from '../../../api/client';
import { useMetadata } from '../../../api/metadata';
import { ErrorNote } from '../../../ui/ErrorNote';
import { Checkbox, Page, TextField } from '../../../ui/forms';
import { useAction } from '../../../ui/useAction';
import { sqlIdent, sqlLiteral, sqlTable } from '../../../api/sql';
import { columnDefinition, COMMON_TYPES, type NewColumn } from '../modify/columnSql';

type Draft = NewColumn & { primary: boolean };

const blank = (): Draft => ({ name: '', type: '', nullable: true, unique: false, default: '', primary: false });

export function CreateTablePage({ source, schema }: { source: string; schema: string }) {
  const { refresh } = useMetadata();
  const typesId = useId();
  const [name, setName] = useState('');
  const [comment, setComment] = useState('');
  const [columns, setColumns] = useState<Draft[]>([{ name: 'id', type: 'serial', nullable: false, unique: false, default: '', primary: true }, blank()]);
  const set = (i: number, change: Partial<Draft>) => setColumns((cs) => cs.map((c, j) => (j === i ? { ...c, ...change } : c)));
  const create = useAction(async () => {
    const table = { schema, name: name.trim() };
    const used = columns.filter((c) => c.name.trim() !== '');
    const key = used.filter((c) => c.primary).map((c) => sqlIdent(c.name.trim()));
    const parts = [...used.map(columnDefinition), ...(key.length > 0 ? [`PRIMARY KEY (${key.join(', ')})`] : [])];
    const sql = [`CREATE TABLE ${sqlTable(table)} (${parts.join(', ')});`, comment.trim() ? `COMMENT ON TABLE ${sqlTable(table)} IS ${sqlLiteral(comment.trim())};` : ''].join('\n');
    await runSql(sql, { source });
    await callMetadata('pg_track_table', { source, table });
    await refresh();
    navigate(pathOf('data', source, 'schema', schema, 'tables', table.name, 'modify'));
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void create.run();
  };
  return (
    <Page title="Add a new table">
      <form onSubmit={submit} aria-label="Add a new table">
        <TextField label="Table name" value={name} onChange={(e) => setName(e.target.value)} required />
        <fieldset>
          <legend>Columns</legend>
          <datalist id={typesId}>
            {COMMON_TYPES.map((t) => (
              <option key={t} value={t} />
            ))}
          </datalist>
          {columns.map((c, i) => (
            <fieldset className="row column-draft" key={i}>
              <legend>Column {i + 1}</legend>
              <TextField label="Name" value={c.name} onChange={(e) => set(i, { name: e.target.value })} />
              <TextField label="Type" value={c.type} list={typesId} onChange={(e) => set(i, { type: e.target.value })} required={c.name.trim() !== ''} />
              <TextField label="Default (SQL)" value={c.default} onChange={(e) => set(i, { default: e.target.value })} />
              <Checkbox label="Nullable" checked={c.nullable} onChange={(e) => set(i, { nullable: e.target.checked })} />
              <Checkbox label="Unique" checked={c.unique} onChange={(e) => set(i, { unique: e.target.checked })} />
              <Checkbox label="Primary key" checked={c.primary} onChange={(e) => set(i, { primary: e.target.checked })} />
              {columns.length > 1 && (
                <button type="button" className="secondary" aria-label={`Remove column ${i + 1}`} onClick={() => setColumns((cs) => cs.filter((_, j) => j !== i))}>
                  Remove
                </button>
              )}
            </fieldset>
          ))}
          <button type="button" className="secondary" onClick={() => setColumns((cs) => [...cs, blank()])}>
            Add a column
          </button>
        </fieldset>
        <TextField label="Comment" value={comment} onChange={(e) => setComment(e.target.value)} />
        <button type="submit" disabled={create.busy}>
          Add Table
        </button>
      </form>
      <ErrorNote error={create.error} />
    </Page>
  );
}
