/** The fields of an action's form, as the well-known console lays them out. */
import { Checkbox, Select, TextArea, TextField } from '../../ui/forms';
import { HeaderListEditor } from '../../ui/HeaderListEditor';
import type { ActionForm } from './form';
import { TransformFields } from './TransformFields';

export function ActionFields({ form, onChange }: { form: ActionForm; onChange: (form: ActionForm) => void }) {
  const set = (patch: Partial<ActionForm>) => onChange({ ...form, ...patch });
  return (
    <>
      <TextArea label="Action definition" rows={5} value={form.actionSdl} onChange={(e) => set({ actionSdl: e.target.value })} />
      <TextArea label="Type configuration" rows={10} value={form.typesSdl} onChange={(e) => set({ typesSdl: e.target.value })} />
      <TextField label="Webhook (HTTP/S) handler" value={form.handler} required placeholder="https://example.com/handler or {{ACTION_BASE_URL}}/handler" onChange={(e) => set({ handler: e.target.value })} />
      <Select
        label="Kind"
        value={form.kind}
        options={[
          { value: 'synchronous', label: 'Synchronous' },
          { value: 'asynchronous', label: 'Asynchronous' },
        ]}
        onChange={(e) => set({ kind: e.target.value === 'asynchronous' ? 'asynchronous' : 'synchronous' })}
      />
      <HeaderListEditor rows={form.headers} onChange={(headers) => set({ headers })} />
      <Checkbox label="Forward client headers to webhook" checked={form.forwardClientHeaders} onChange={(e) => set({ forwardClientHeaders: e.target.checked })} />
      <TextField label="Action timeout (seconds)" type="number" min={1} value={form.timeout} placeholder="30" onChange={(e) => set({ timeout: e.target.value })} />
      <TransformFields form={form} onChange={(transform) => set({ transform })} />
    </>
  );
}
