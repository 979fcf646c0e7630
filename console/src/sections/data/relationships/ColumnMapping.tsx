/** Pairs of columns (this table's → the other's), as the relationship forms ask for them. */
import { Select } from '../../../ui/forms';

export type Pair = [string, string];

export function ColumnMapping({ from, to, pairs, onChange }: { from: string[]; to: string[]; pairs: Pair[]; onChange: (pairs: Pair[]) => void }) {
  const set = (i: number, pair: Pair) => onChange(pairs.map((p, j) => (j === i ? pair : p)));
  return (
    <fieldset>
      <legend>Column mapping</legend>
      {pairs.map(([a, b], i) => (
        <div className="row" key={i}>
          <Select label={`From column ${i + 1}`} value={a} onChange={(e) => set(i, [e.target.value, b])} options={['', ...from]} />
          <Select label={`To column ${i + 1}`} value={b} onChange={(e) => set(i, [a, e.target.value])} options={['', ...to]} />
          {pairs.length > 1 && (
            <button type="button" className="secondary" onClick={() => onChange(pairs.filter((_, j) => j !== i))}>
              Remove pair {i + 1}
            </button>
          )}
        </div>
      ))}
      <button type="button" className="secondary" onClick={() => onChange([...pairs, ['', '']])}>
        Add column pair
      </button>
    </fieldset>
  );
}
