/** The headers a webhook is called with, each a static value or an environment variable's (`value_from_env`). */
import type { Header } from './api';
import { Select, TextField } from '../../ui/forms';

export interface HeaderRow {
  name: string;
  from: 'value' | 'env';
  value: string;
}

export const headerRows = (headers: Header[] | undefined): HeaderRow[] =>
  (headers ?? []).map((h) => (h.value_from_env !== undefined ? { name: h.name, from: 'env', value: h.value_from_env } : { name: h.name, from: 'value', value: h.value ?? '' }));

/** The rows as the commands take them (rows without a name left out). */
export const headersArg = (rows: HeaderRow[]): Header[] =>
  rows.filter((r) => r.name.trim() !== '').map((r) => (r.from === 'env' ? { name: r.name.trim(), value_from_env: r.value } : { name: r.name.trim(), value: r.value }));

export function HeadersEditor({ rows, onChange }: { rows: HeaderRow[]; onChange: (rows: HeaderRow[]) => void }) {
  const set = (i: number, change: Partial<HeaderRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...change } : r)));
  return (
    <fieldset className="headers-editor">
      <legend>Headers</legend>
      {rows.map((r, i) => (
        // Rows have no identity but their place: removing one re-keys those after it, which only re-renders them.
        <div className="row" key={i}>
          <TextField label={`Header ${i + 1} name`} value={r.name} onChange={(e) => set(i, { name: e.target.value })} />
          <Select
            label={`Header ${i + 1} type`}
            value={r.from}
            options={[
              { value: 'value', label: 'Value' },
              { value: 'env', label: 'From env var' },
            ]}
            onChange={(e) => set(i, { from: e.target.value === 'env' ? 'env' : 'value' })}
          />
          <TextField label={r.from === 'env' ? `Header ${i + 1} env var` : `Header ${i + 1} value`} value={r.value} onChange={(e) => set(i, { value: e.target.value })} />
          <button type="button" className="danger" onClick={() => onChange(rows.filter((_, j) => j !== i))}>
            Remove header {i + 1}
          </button>
        </div>
      ))}
      <button type="button" className="secondary" onClick={() => onChange([...rows, { name: '', from: 'value', value: '' }])}>
        Add header
      </button>
    </fieldset>
  );
}
