/**
 * OpenTelemetry export, as the well-known console's OpenTelemetry page sets it: switched on and
 * off (`set_opentelemetry_status`), and its setting (`set_opentelemetry_config`): the data
 * types, their OTLP endpoints, headers, resource attributes, propagators and batch size.
 */
import { useState, type FormEvent } from 'react';
import { ErrorNote } from '../../../ui/ErrorNote';
import { Checkbox, TextField } from '../../../ui/forms';
import { useMetadataChange } from '../../../ui/useMetadataChange';
import { DATA_TYPES, documentOf, inputOf, PROPAGATORS, type OtelInput } from './openTelemetry';
import { HeaderListEditor } from '../../../ui/HeaderListEditor';
import { PairRows } from '../PairRows';

const toggled = (list: string[], item: string, on: boolean): string[] => (on ? [...list.filter((x) => x !== item), item] : list.filter((x) => x !== item));

export function OpenTelemetrySettings({ stored }: { stored: Record<string, unknown> | undefined }) {
  const [input, setInput] = useState<OtelInput>(() => inputOf(stored));
  const status = stored?.status === 'enabled' ? 'enabled' : 'disabled';
  const change = useMetadataChange();
  const set = (part: Partial<OtelInput>) => setInput((i) => ({ ...i, ...part }));
  const submit = (e: FormEvent) => (e.preventDefault(), void change.run('set_opentelemetry_config', documentOf(input, status)));
  return (
    <section aria-label="OpenTelemetry">
      <h2>OpenTelemetry</h2>
      <div className="row">
        <span>
          Export is <strong>{status}</strong>.
        </span>
        <button type="button" className="secondary" disabled={change.busy} onClick={() => void change.run('set_opentelemetry_status', status === 'enabled' ? 'disabled' : 'enabled')}>
          {status === 'enabled' ? 'Disable' : 'Enable'} OpenTelemetry
        </button>
      </div>
      <form onSubmit={submit} aria-label="OpenTelemetry setting">
        <fieldset className="row">
          <legend>Data types</legend>
          {DATA_TYPES.map((t) => (
            <Checkbox key={t} label={t} checked={input.dataTypes.includes(t)} onChange={(e) => set({ dataTypes: toggled(input.dataTypes, t, e.target.checked) })} />
          ))}
        </fieldset>
        {DATA_TYPES.map((t) => (
          <TextField key={t} label={`OTLP ${t} endpoint`} placeholder={`http://collector:4318/v1/${t}`} value={input.endpoints[t]} onChange={(e) => set({ endpoints: { ...input.endpoints, [t]: e.target.value } })} />
        ))}
        <p className="hint">Protocol: http/protobuf (the only one). Metrics and logs are stored but not pushed: metrics are served at /v1/metrics, logs go to stdout.</p>
        <TextField label="Batch size (spans per export)" inputMode="numeric" value={input.batchSize} onChange={(e) => set({ batchSize: e.target.value })} />
        <HeaderListEditor rows={input.headers} onChange={(headers) => set({ headers })} />
        <PairRows title="Resource attribute" rows={input.attributes} onChange={(attributes) => set({ attributes })} />
        <fieldset className="row">
          <legend>Trace propagators</legend>
          {PROPAGATORS.map((p) => (
            <Checkbox key={p} label={p} checked={input.propagators.includes(p)} onChange={(e) => set({ propagators: toggled(input.propagators, p, e.target.checked) })} />
          ))}
        </fieldset>
        <button type="submit" disabled={change.busy}>
          Save OpenTelemetry setting
        </button>
      </form>
      <ErrorNote error={change.error} />
    </section>
  );
}
