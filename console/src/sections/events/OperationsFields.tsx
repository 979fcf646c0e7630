/**
 * The operations an event trigger fires on (insert, update, delete) and "Via console" (manual
 * invocation, `enable_manual`); an update fires only for the columns ticked, as the well-known
 * engine's console lists them (all of them: `*`).
 */
import { Checkbox } from '../../ui/forms';

export interface Operations {
  insert: boolean;
  update: boolean;
  delete: boolean;
  manual: boolean;
  /** The columns whose change fires an update. */
  updateColumns: '*' | string[];
}

export function OperationsFields({ value, onChange, columns }: { value: Operations; onChange: (v: Operations) => void; columns: string[] }) {
  const ticked = (c: string) => value.updateColumns === '*' || value.updateColumns.includes(c);
  const toggle = (c: string, on: boolean) => {
    const list = columns.filter((x) => (x === c ? on : ticked(x)));
    onChange({ ...value, updateColumns: list.length === columns.length ? '*' : list });
  };
  return (
    <fieldset>
      <legend>Trigger operations</legend>
      <div className="row">
        <Checkbox label="Insert" checked={value.insert} onChange={(e) => onChange({ ...value, insert: e.target.checked })} />
        <Checkbox label="Update" checked={value.update} onChange={(e) => onChange({ ...value, update: e.target.checked })} />
        <Checkbox label="Delete" checked={value.delete} onChange={(e) => onChange({ ...value, delete: e.target.checked })} />
        <Checkbox label="Via console" checked={value.manual} onChange={(e) => onChange({ ...value, manual: e.target.checked })} />
      </div>
      {value.update && columns.length > 0 && (
        <fieldset>
          <legend>Listen columns for update</legend>
          <div className="row">
            {columns.map((c) => (
              <Checkbox key={c} label={`Update column ${c}`} checked={ticked(c)} onChange={(e) => toggle(c, e.target.checked)} />
            ))}
          </div>
        </fieldset>
      )}
    </fieldset>
  );
}

/** The operations of a stored definition. */
export function operationsOf(definition: Record<string, unknown> | undefined): Operations {
  const update = definition?.update as { columns?: unknown } | undefined;
  return {
    insert: definition?.insert !== undefined,
    update: update !== undefined,
    delete: definition?.delete !== undefined,
    manual: definition?.enable_manual === true,
    updateColumns: Array.isArray(update?.columns) ? update.columns.map(String) : '*',
  };
}
