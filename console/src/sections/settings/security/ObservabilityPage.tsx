/** Observability settings stored in the metadata: OpenTelemetry export and the metrics' setting. */
import { useMetadata } from '../../../api/metadata';
import { Page } from '../../../ui/forms';
import { MetricsSettings } from './MetricsSettings';
import { OpenTelemetrySettings } from './OpenTelemetrySettings';

export function ObservabilityPage() {
  const { metadata: m } = useMetadata();
  if (!m) return <p className="loading">Loading…</p>;
  return (
    <Page title="Observability">
      {/* Keyed by what is stored: once saved, or changed elsewhere, the fields show what is stored. */}
      <OpenTelemetrySettings key={`otel ${JSON.stringify(m.opentelemetry ?? null)}`} stored={m.opentelemetry} />
      <MetricsSettings key={`metrics ${JSON.stringify(m.metrics_config ?? null)}`} stored={m.metrics_config} />
    </Page>
  );
}
