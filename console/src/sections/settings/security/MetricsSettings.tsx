/** The metrics' setting (`set_metrics_config`, `remove_metrics_config`; docs/operations.md, "Metrics"). */
import { useState } from 'react';
import type { Metadata } from '../../../api/metadata';
import { ErrorNote } from '../../../ui/ErrorNote';
import { Checkbox } from '../../../ui/forms';
import { useMetadataChange } from '../../../ui/useMetadataChange';

export function MetricsSettings({ stored }: { stored: Metadata['metrics_config'] }) {
  const [variables, setVariables] = useState(stored?.analyze_query_variables === true);
  const [body, setBody] = useState(stored?.analyze_response_body === true);
  const change = useMetadataChange();
  return (
    <section aria-label="Metrics">
      <h2>Metrics</h2>
      <p>Stored and exported for compatibility: this engine analyses neither, so they change no metric.</p>
      <Checkbox label="Analyze query variables" checked={variables} onChange={(e) => setVariables(e.target.checked)} />
      <Checkbox label="Analyze response body" checked={body} onChange={(e) => setBody(e.target.checked)} />
      <div className="row">
        <button type="button" disabled={change.busy} onClick={() => void change.run('set_metrics_config', { analyze_query_variables: variables, analyze_response_body: body })}>
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
