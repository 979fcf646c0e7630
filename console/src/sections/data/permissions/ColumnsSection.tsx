/** The columns (and computed fields) a permission grants: a checkbox each and "Toggle all". */
import { Checkbox } from '../../../ui/forms';

export function ColumnsSection({ title, names, chosen, onChange }: { title: string; names: string[]; chosen: string[]; onChange(next: string[]): void }) {
  const all = names.length > 0 && names.every((n) => chosen.includes(n));
  const toggle = (name: string, on: boolean) => onChange(on ? names.filter((n) => n === name || chosen.includes(n)) : chosen.filter((n) => n !== name));
  return (
    <fieldset className="permission-part">
      <legend>{title}</legend>
      <div className="row">
        {names.map((n) => (
          <Checkbox key={n} label={n} checked={chosen.includes(n)} onChange={(e) => toggle(n, e.target.checked)} />
        ))}
        <button type="button" className="secondary" aria-label={`Toggle all: ${title}`} onClick={() => onChange(all ? [] : names)}>
          Toggle all
        </button>
      </div>
    </fieldset>
  );
}
