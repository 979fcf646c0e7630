/**
 * A select permission's other settings: the row limit, aggregation queries, and which root
 * fields the role gets (every one when all are ticked: the keys are then left out).
 */
import type { Draft } from './draft';
import { QUERY_ROOT_FIELDS, SUBSCRIPTION_ROOT_FIELDS } from './draft';
import { Checkbox, TextField } from '../../../ui/forms';

function RootFields({ title, all, chosen, onChange }: { title: string; all: string[]; chosen: string[] | null; onChange(next: string[] | null): void }) {
  const on = chosen ?? all;
  const toggle = (f: string, checked: boolean) => {
    const next = all.filter((x) => (x === f ? checked : on.includes(x)));
    onChange(next.length === all.length ? null : next);
  };
  return (
    <fieldset className="permission-part">
      <legend>{title}</legend>
      <div className="row">
        {all.map((f) => (
          <Checkbox key={f} label={f} checked={on.includes(f)} onChange={(e) => toggle(f, e.target.checked)} />
        ))}
      </div>
    </fieldset>
  );
}

export function SelectOptions({ draft, onChange }: { draft: Draft; onChange(p: Partial<Draft>): void }) {
  return (
    <>
      <fieldset className="permission-part">
        <legend>Rows and aggregations</legend>
        <TextField label="Limit number of rows" type="number" min={0} value={draft.limit} onChange={(e) => onChange({ limit: e.target.value })} />
        <Checkbox label="Allow aggregation queries" checked={draft.allowAggregations} onChange={(e) => onChange({ allowAggregations: e.target.checked })} />
      </fieldset>
      <RootFields title="Query root fields" all={QUERY_ROOT_FIELDS} chosen={draft.queryRootFields} onChange={(queryRootFields) => onChange({ queryRootFields })} />
      <RootFields title="Subscription root fields" all={SUBSCRIPTION_ROOT_FIELDS} chosen={draft.subscriptionRootFields} onChange={(subscriptionRootFields) => onChange({ subscriptionRootFields })} />
    </>
  );
}
