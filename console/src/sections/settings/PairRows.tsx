/** Name/value rows the user adds and removes (headers, resource attributes); a value may name an environment variable. */
import { Checkbox, TextField } from '../../ui/forms';

export interface Pair {
  name: string;
  value: string;
  /** The value is an environment variable's name (`value_from_env`). */
  fromEnv: boolean;
}

export function PairRows({ title, withEnv, rows, onChange }: { title: string; withEnv: boolean; rows: Pair[]; onChange: (rows: Pair[]) => void }) {
  const set = (i: number, change: Partial<Pair>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...change } : r)));
  return (
    <fieldset aria-label={title}>
      <legend>{title}</legend>
      {rows.map((r, i) => (
        // Rows are positions in a list the user edits: the index is their identity.
        <div className="row" key={i}>
          <TextField label={`${title}: name ${i + 1}`} value={r.name} onChange={(e) => set(i, { name: e.target.value })} />
          <TextField label={`${title}: value ${i + 1}`} value={r.value} onChange={(e) => set(i, { value: e.target.value })} />
          {withEnv && <Checkbox label={`${title}: value ${i + 1} names an environment variable`} checked={r.fromEnv} onChange={(e) => set(i, { fromEnv: e.target.checked })} />}
          <button type="button" className="secondary" onClick={() => onChange(rows.filter((_, j) => j !== i))}>
            Remove {title.toLowerCase()} {i + 1}
          </button>
        </div>
      ))}
      <button type="button" className="secondary" onClick={() => onChange([...rows, { name: '', value: '', fromEnv: false }])}>
        Add {title.toLowerCase()}
      </button>
    </fieldset>
  );
}
