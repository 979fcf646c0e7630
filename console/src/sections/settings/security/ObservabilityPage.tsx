/**
 * Observability settings stored in the metadata: OpenTelemetry export
 * (`set_opentelemetry_config` with the whole setting as JSON, `set_opentelemetry_status`) and
 * the metrics' settings (`set_metrics_config`, `remove_metrics_config`). docs/operations.md
 * ("Traces", "Metrics") says what each key does.
 */
import { useState } from 'react';
import { metadata } from '../../../api/client';
import { useMetadata, type Metadata } from '../../../api/metadata';
import { ErrorNote } from '../../../ui/ErrorNote';
import { Checkbox, Page, TextArea } from '../../../ui/forms';
import { useAction } from '../../../ui/useAction';

/** What `set_opentelemetry_config` is shown with when nothing is stored (docs/operations.md's example, disabled). */
const OTEL_EXAMPLE = { status: 'disabled', data_types: ['traces'], exporter_otlp: { otlp_traces_endpoint: 'http://collector:4318/v1/traces', protocol: 'http/protobuf', headers: [], resource_attributes: [] }, batch_span_processor: { max_export_batch_size: 512 } };

function parseObject(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Error(`The setting is not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function OpenTelemetry({ stored }: { stored: Record<string, unknown> | undefined }) {
  const { refresh } = useMetadata();
  const [text, setText] = useState(() => JSON.stringify(stored ?? OTEL_EXAMPLE, null, 2));
  const change = useAction(async (type: 'set_opentelemetry_config' | 'set_opentelemetry_status', args: unknown) => {
    await metadata(type, args);
    await refresh();
  });
  const status = stored?.status === 'enabled' ? 'enabled' : 'disabled';
  return (
    <section aria-label="OpenTelemetry">
      <h2>OpenTelemetry</h2>
      <p>
        Traces are <strong>{status}</strong>.
      </p>
      <div className="row">
        <button type="button" className="secondary" disabled={change.busy} onClick={() => void change.run('set_opentelemetry_status', status === 'enabled' ? 'disabled' : 'enabled')}>
          {status === 'enabled' ? 'Disable' : 'Enable'} OpenTelemetry
        </button>
      </div>
      <TextArea label="OpenTelemetry setting (JSON)" rows={14} value={text} onChange={(e) => setText(e.target.value)} />
      <button type="button" disabled={change.busy} onClick={() => void change.run('set_opentelemetry_config', parseObject(text))}>
        Save OpenTelemetry setting
      </button>
      <ErrorNote error={change.error} />
    </section>
  );
}

function MetricsConfig({ stored }: { stored: Metadata['metrics_config'] }) {
  const { refresh } = useMetadata();
  const [variables, setVariables] = useState(stored?.analyze_query_variables === true);
  const [body, setBody] = useState(stored?.analyze_response_body === true);
  const change = useAction(async (type: 'set_metrics_config' | 'remove_metrics_config') => {
    await metadata(type, type === 'set_metrics_config' ? { analyze_query_variables: variables, analyze_response_body: body } : {});
    await refresh();
  });
  return (
    <section aria-label="Metrics">
      <h2>Metrics</h2>
      <p>Stored and exported for compatibility: this engine analyses neither, so they change no metric.</p>
      <Checkbox label="Analyze query variables" checked={variables} onChange={(e) => setVariables(e.target.checked)} />
      <Checkbox label="Analyze response body" checked={body} onChange={(e) => setBody(e.target.checked)} />
      <div className="row">
        <button type="button" disabled={change.busy} onClick={() => void change.run('set_metrics_config')}>
          Save metrics setting
        </button>
        {stored && (
          <button type="button" className="danger" disabled={change.busy} onClick={() => void change.run('remove_metrics_config')}>
            Remove metrics setting
          </button>
        )}
      </div>
      <ErrorNote error={change.error} />
    </section>
  );
}

export function ObservabilityPage() {
  const { metadata: m } = useMetadata();
  if (!m) return <p className="loading">Loading…</p>;
  return (
    <Page title="Observability">
      {/* Keyed by what is stored: a change made elsewhere resets the fields. */}
      <OpenTelemetry key={JSON.stringify(m.opentelemetry ?? null)} stored={m.opentelemetry} />
      <MetricsConfig key={JSON.stringify(m.metrics_config ?? null)} stored={m.metrics_config} />
    </Page>
  );
}
