/**
 * One labelled input per column (the label is the column's name; its type and whether it has a
 * default or takes NULL are said beside it), for inserting a row or editing one (`fieldValue`
 * says what each field sends).
 */
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import type { Column } from '../catalog';

/**
 * A field's text as the value sent: text for PostgreSQL to parse, but a `json`/`jsonb` column
 * takes a JSON value (text would be stored as a JSON string), so valid JSON is sent parsed.
 */
export function fieldValue(column: Column, text: string): unknown {
  if (column.type !== 'json' && column.type !== 'jsonb') return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function ColumnField({ column, value, onChange }: { column: Column; value: string; onChange: (v: string) => void }) {
  const id = useId();
  const hints = [column.type, column.primary ? 'primary key' : '', column.default !== null ? `default: ${column.default}` : '', column.nullable ? 'nullable' : ''].filter(Boolean).join(' · ');
  return (
    <div className="field">
      <label htmlFor={id}>{column.name}</label>
      <input id={id} aria-describedby={`${id}-hint`} value={value} onChange={(e) => onChange(e.target.value)} placeholder={column.default !== null ? 'default' : column.nullable ? 'null' : ''} />
      <small id={`${id}-hint`} className="hint">
        {hints}
      </small>
    </div>
  );
}

export function RowForm({ columns, initial, submitLabel, busy, onSubmit, children }: { columns: Column[]; initial?: Record<string, string | null>; submitLabel: string; busy: boolean; onSubmit: (values: Record<string, string>) => unknown; children?: ReactNode }) {
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(columns.map((c) => [c.name, initial?.[c.name] ?? ''])));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void onSubmit(values);
  };
  return (
    <form onSubmit={submit} aria-label={submitLabel}>
      {columns.map((c) => (
        <ColumnField key={c.name} column={c} value={values[c.name] ?? ''} onChange={(v) => setValues((s) => ({ ...s, [c.name]: v }))} />
      ))}
      <div className="row">
        <button type="submit" disabled={busy}>
          {submitLabel}
        </button>
        {children}
      </div>
    </form>
  );
}
