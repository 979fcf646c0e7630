/** Name/value rows the user adds and removes (request headers, resource attributes); headers with values from the environment are `ui/HeaderListEditor`'s. */
import { TextField } from '../../ui/forms';

export interface Pair {
  name: string;
  value: string;
}

export function PairRows({ title, rows, onChange }: { title: string; rows: Pair[]; onChange: (rows: Pair[]) => void }) {
  const set = (i: number, change: Partial<Pair>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...change } : r)));
  return (
    <fieldset aria-label={title}>
      <legend>{title}</legend>
      {rows.map((r, i) => (
        // Rows are positions in a list the user edits: the index is their identity.
        <div className="row" key={i}>
          <TextField label={`${title}: name ${i + 1}`} value={r.name} onChange={(e) => set(i, { name: e.target.value })} />
          <TextField label={`${title}: value ${i + 1}`} value={r.value} onChange={(e) => set(i, { value: e.target.value })} />
          <button type="button" className="secondary" onClick={() => onChange(rows.filter((_, j) => j !== i))}>
            Remove {title.toLowerCase()} {i + 1}
          </button>
        </div>
      ))}
      <button type="button" className="secondary" onClick={() => onChange([...rows, { name: '', value: '' }])}>
        Add {title.toLowerCase()}
      </button>
    </fieldset>
  );
}
