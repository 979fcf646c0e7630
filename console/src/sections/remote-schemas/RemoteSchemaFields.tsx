/**
 * The fields of a remote schema's form, as the well-known console lays them out: name, GraphQL
 * server URL (or the environment variable holding it), headers, forwarding the client's
 * headers, timeout, and the GraphQL customizations.
 */
import { Checkbox, Select, TextField } from '../../ui/forms';
import { HeaderListEditor } from '../../ui/HeaderListEditor';
import type { FieldNamesRow, RemoteSchemaForm } from './definition';

export function RemoteSchemaFields({ form, onChange, nameFixed }: { form: RemoteSchemaForm; onChange: (form: RemoteSchemaForm) => void; nameFixed?: boolean }) {
  const set = (patch: Partial<RemoteSchemaForm>) => onChange({ ...form, ...patch });
  const setField = (i: number, patch: Partial<FieldNamesRow>) => set({ fieldNames: form.fieldNames.map((f, j) => (j === i ? { ...f, ...patch } : f)) });
  return (
    <>
      <TextField label="Remote schema name" value={form.name} readOnly={nameFixed} required onChange={(e) => set({ name: e.target.value })} />
      <TextField label="Comment" value={form.comment} onChange={(e) => set({ comment: e.target.value })} />
      <div className="row url-row">
        <Select label="GraphQL server URL from" value={form.urlFromEnv ? 'env' : 'url'} options={[{ value: 'url', label: 'URL' }, { value: 'env', label: 'Env var' }]} onChange={(e) => set({ urlFromEnv: e.target.value === 'env' })} />
        <TextField label={form.urlFromEnv ? 'GraphQL server URL env var' : 'GraphQL server URL'} value={form.url} required placeholder={form.urlFromEnv ? 'REMOTE_URL' : 'https://example.com/graphql'} onChange={(e) => set({ url: e.target.value })} />
      </div>
      <HeaderListEditor rows={form.headers} onChange={(headers) => set({ headers })} />
      <Checkbox label="Forward all headers from client" checked={form.forwardClientHeaders} onChange={(e) => set({ forwardClientHeaders: e.target.checked })} />
      <TextField label="GraphQL server timeout (seconds)" type="number" min={1} value={form.timeout} placeholder="60" onChange={(e) => set({ timeout: e.target.value })} />
      <fieldset>
        <legend>GraphQL customizations</legend>
        <TextField label="Root fields namespace" value={form.namespace} onChange={(e) => set({ namespace: e.target.value })} />
        <div className="row">
          <TextField label="Type names prefix" value={form.typePrefix} onChange={(e) => set({ typePrefix: e.target.value })} />
          <TextField label="Type names suffix" value={form.typeSuffix} onChange={(e) => set({ typeSuffix: e.target.value })} />
        </div>
        {form.fieldNames.map((f, i) => (
          // Rows are identified by their place, as the headers' are.
          <div className="row" key={i}>
            <TextField label={`Field names ${i + 1} parent type`} value={f.parentType} placeholder="Query" onChange={(e) => setField(i, { parentType: e.target.value })} />
            <TextField label={`Field names ${i + 1} prefix`} value={f.prefix} onChange={(e) => setField(i, { prefix: e.target.value })} />
            <TextField label={`Field names ${i + 1} suffix`} value={f.suffix} onChange={(e) => setField(i, { suffix: e.target.value })} />
            <button type="button" className="secondary" aria-label={`Remove field names ${i + 1}`} onClick={() => set({ fieldNames: form.fieldNames.filter((_, j) => j !== i) })}>
              Remove
            </button>
          </div>
        ))}
        <button type="button" className="secondary" onClick={() => set({ fieldNames: [...form.fieldNames, { parentType: '', prefix: '', suffix: '' }] })}>
          Add field names customization
        </button>
      </fieldset>
    </>
  );
}
