/**
 * The headers a remote schema, an action handler, a trigger's webhook or the OpenTelemetry
 * exporter is called with, edited as rows: a name and
 * either a value or the environment variable the engine reads it from (the well-known console's
 * "Headers" editor: `{name, value}` or `{name, value_from_env}`).
 */
import type { ConfiguredHeader } from '../api/metadata';
import { TextField, Select } from './forms';

export interface HeaderRow {
  name: string;
  value: string;
  fromEnv: boolean;
}

export const headerRows = (headers: ConfiguredHeader[] | undefined): HeaderRow[] =>
  (headers ?? []).map((h) => (h.value_from_env !== undefined ? { name: h.name, value: h.value_from_env, fromEnv: true } : { name: h.name, value: h.value ?? '', fromEnv: false }));

/** The rows as the API takes them; rows without a name are left out. */
export const configuredHeaders = (rows: HeaderRow[]): ConfiguredHeader[] =>
  rows.filter((r) => r.name.trim() !== '').map((r) => (r.fromEnv ? { name: r.name.trim(), value_from_env: r.value } : { name: r.name.trim(), value: r.value }));

export function HeaderListEditor({ rows, onChange }: { rows: HeaderRow[]; onChange: (rows: HeaderRow[]) => void }) {
  const set = (i: number, patch: Partial<HeaderRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <fieldset className="header-list">
      <legend>Headers</legend>
      {rows.map((r, i) => (
        // Rows have no identity of their own but their place: a removed row's successors re-render with their values.
        <div className="row" key={i}>
          <TextField label={`Header ${i + 1} name`} value={r.name} onChange={(e) => set(i, { name: e.target.value })} />
          <Select label={`Header ${i + 1} type`} value={r.fromEnv ? 'env' : 'value'} options={[{ value: 'value', label: 'Value' }, { value: 'env', label: 'From env var' }]} onChange={(e) => set(i, { fromEnv: e.target.value === 'env' })} />
          <TextField label={r.fromEnv ? `Header ${i + 1} env var` : `Header ${i + 1} value`} value={r.value} onChange={(e) => set(i, { value: e.target.value })} />
          <button type="button" className="secondary" aria-label={`Remove header ${i + 1}`} onClick={() => onChange(rows.filter((_, j) => j !== i))}>
            Remove
          </button>
        </div>
      ))}
      <button type="button" className="secondary" onClick={() => onChange([...rows, { name: '', value: '', fromEnv: false }])}>
        Add header
      </button>
    </fieldset>
  );
}
