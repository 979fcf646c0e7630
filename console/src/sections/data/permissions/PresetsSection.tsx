/**
 * Column presets of an insert or update permission (`set`): a column, and a static value or a
 * session variable (`X-Service-…`), as the well-known engine's console offers them.
 */
import type { Preset } from './draft';
import { Select, TextField } from '../../../ui/forms';

const SESSION_START = 'X-Service-';

export function PresetsSection({ columns, presets, onChange }: { columns: string[]; presets: Preset[]; onChange(next: Preset[]): void }) {
  const setAt = (i: number, p: Partial<Preset>) => onChange(presets.map((x, j) => (j === i ? { ...x, ...p } : x)));
  const setKind = (i: number, kind: Preset['kind']) => setAt(i, { kind, value: kind === 'session' ? SESSION_START : '' });
  const free = columns.filter((c) => !presets.some((p) => p.column === c));
  return (
    <fieldset className="permission-part">
      <legend>Column presets</legend>
      {presets.map((p, i) => (
        // A preset is known by its place until its column is chosen.
        <div className="row" key={i}>
          <Select label={`Preset column ${i + 1}`} value={p.column} options={[{ value: '', label: '-- column --' }, ...columns.filter((c) => c === p.column || free.includes(c))]} onChange={(e) => setAt(i, { column: e.target.value })} />
          <Select
            label={`Preset type ${i + 1}`}
            value={p.kind}
            options={[
              { value: 'static', label: 'static' },
              { value: 'session', label: 'from session variable' },
            ]}
            onChange={(e) => setKind(i, e.target.value as Preset['kind'])}
          />
          <TextField label={`Preset value ${i + 1}`} value={p.value} placeholder={p.kind === 'session' ? 'X-Service-User-Id' : 'value'} onChange={(e) => setAt(i, { value: e.target.value })} />
          <button type="button" className="secondary" aria-label={`Remove preset ${i + 1}`} onClick={() => onChange(presets.filter((_, j) => j !== i))}>
            ✕
          </button>
        </div>
      ))}
      <button type="button" className="secondary" disabled={free.length === 0} onClick={() => onChange([...presets, { column: '', kind: 'static', value: '' }])}>
        Add preset
      </button>
    </fieldset>
  );
}
