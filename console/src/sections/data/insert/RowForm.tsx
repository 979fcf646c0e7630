/**
 * One labelled input per column (the label is the column's name; its type, default and
 * nullability are said beside it), for inserting a row or editing one. As in the well-known
 * console, each field is a value, NULL (a nullable column) or the column's default (when
 * inserting, a column that has one); typing picks "value". `fieldValue` says what a value sends.
 */
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import type { Column } from '../../../api/catalog';

export type FieldMode = 'value' | 'null' | 'default';

export interface Field {
  mode: FieldMode;
  text: string;
}

/**
 * A value's text as sent: text for PostgreSQL to parse, but a `json`/`jsonb` column takes a JSON
 * value (text would be stored as a JSON string), so valid JSON is sent parsed.
 */
function fieldValue(column: Column, text: string): unknown {
  if (column.type !== 'json' && column.type !== 'jsonb') return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The columns a form sets and their values (NULL as null; a default is left out). */
export const rowOf = (columns: Column[], fields: Record<string, Field>): Record<string, unknown> =>
  Object.fromEntries(columns.flatMap((c) => {
    const f = fields[c.name];
    if (!f || f.mode === 'default') return [];
    return [[c.name, f.mode === 'null' ? null : fieldValue(c, f.text)]];
  }));

function ColumnField({ column, field, withDefault, onChange }: { column: Column; field: Field; withDefault: boolean; onChange: (f: Field) => void }) {
  const id = useId();
  const hints = [column.type, column.primary ? 'primary key' : '', column.default !== null ? `default: ${column.default}` : '', column.nullable ? 'nullable' : ''].filter(Boolean).join(' · ');
  const modes: { mode: FieldMode; label: string }[] = [
    { mode: 'value', label: 'value' },
    ...(column.nullable ? [{ mode: 'null' as const, label: 'NULL' }] : []),
    ...(withDefault && column.default !== null ? [{ mode: 'default' as const, label: 'default' }] : []),
  ];
  return (
    <div className="field">
      <label htmlFor={id}>{column.name}</label>
      <div className="row">
        <input id={id} aria-describedby={`${id}-hint`} value={field.text} onChange={(e) => onChange({ mode: 'value', text: e.target.value })} />
        {modes.length > 1 && (
          <span role="radiogroup" aria-label={`What ${column.name} is`} className="row">
            {modes.map((m) => (
              <label key={m.mode} className="choice">
                <input type="radio" name={id} checked={field.mode === m.mode} onChange={() => onChange({ ...field, mode: m.mode })} /> {m.label}
              </label>
            ))}
          </span>
        )}
      </div>
      <small id={`${id}-hint`} className="hint">
        {hints}
      </small>
    </div>
  );
}

/** A field's start: the row's value when editing; else the default, else NULL, else blank. */
function initialField(column: Column, initial: Record<string, string | null> | undefined): Field {
  if (initial) return initial[column.name] === null ? { mode: 'null', text: '' } : { mode: 'value', text: initial[column.name] ?? '' };
  return { mode: column.default !== null ? 'default' : column.nullable ? 'null' : 'value', text: '' };
}

export function RowForm({ columns, initial, submitLabel, busy, onSubmit, children }: { columns: Column[]; initial?: Record<string, string | null>; submitLabel: string; busy: boolean; onSubmit: (fields: Record<string, Field>) => unknown; children?: ReactNode }) {
  const [fields, setFields] = useState<Record<string, Field>>(() => Object.fromEntries(columns.map((c) => [c.name, initialField(c, initial)])));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void onSubmit(fields);
  };
  return (
    <form onSubmit={submit} aria-label={submitLabel}>
      {columns.map((c) => (
        <ColumnField key={c.name} column={c} field={fields[c.name] ?? initialField(c, initial)} withDefault={!initial} onChange={(f) => setFields((s) => ({ ...s, [c.name]: f }))} />
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
