/** One API limit's fields: its global value and a value per role (rows added and removed). */
import { TextField } from '../../../ui/forms';
import type { LimitInput, RoleValue } from './apiLimits';

export function LimitFields({ title, hint, rate, value, onChange }: { title: string; hint: string; rate: boolean; value: LimitInput; onChange: (v: LimitInput) => void }) {
  const setRole = (i: number, change: Partial<RoleValue>) => onChange({ ...value, perRole: value.perRole.map((r, j) => (j === i ? { ...r, ...change } : r)) });
  const valueLabel = rate ? 'requests per minute' : 'value';
  return (
    <fieldset aria-label={title}>
      <legend>
        {title} <span className="hint">({hint})</span>
      </legend>
      <div className="row">
        <TextField label={`${title}: global ${valueLabel}`} inputMode="decimal" value={value.global} onChange={(e) => onChange({ ...value, global: e.target.value })} />
        {rate && <TextField label={`${title}: global unique parameters (IP, or session variables)`} value={value.globalUnique} onChange={(e) => onChange({ ...value, globalUnique: e.target.value })} />}
      </div>
      {value.perRole.map((r, i) => (
        // Rows are positions in a list the user edits: the index is their identity.
        <div className="row" key={i}>
          <TextField label={`${title}: role ${i + 1}`} value={r.role} onChange={(e) => setRole(i, { role: e.target.value })} />
          <TextField label={`${title}: ${valueLabel} of role ${i + 1}`} inputMode="decimal" value={r.value} onChange={(e) => setRole(i, { value: e.target.value })} />
          {rate && <TextField label={`${title}: unique parameters of role ${i + 1}`} value={r.unique} onChange={(e) => setRole(i, { unique: e.target.value })} />}
          <button type="button" className="secondary" onClick={() => onChange({ ...value, perRole: value.perRole.filter((_, j) => j !== i) })}>
            Remove role {i + 1} of {title.toLowerCase()}
          </button>
        </div>
      ))}
      <button type="button" className="secondary" onClick={() => onChange({ ...value, perRole: [...value.perRole, { role: '', value: '', unique: '' }] })}>
        Add a role to {title.toLowerCase()}
      </button>
    </fieldset>
  );
}
