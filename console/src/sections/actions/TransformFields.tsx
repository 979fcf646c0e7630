/**
 * The request and response transforms of an action, with the well-known console's "Preview":
 * `test_webhook_transform` applied to a sample of what the handler is sent, showing the request
 * the handler would receive (method, URL, headers, body).
 */
import { useCallback, useState } from 'react';
import { metadata as callMetadata } from '../../api/client';
import { ErrorNote } from '../../ui/ErrorNote';
import { Checkbox, Select, TextArea, TextField } from '../../ui/forms';
import { parseJson } from '../../ui/jsonText';
import { useAction } from '../../ui/useAction';
import { pairsOf } from './pairs';
import { requestTransformOf, samplePayload, type ActionForm, type TransformForm } from './form';

interface TransformedRequest {
  webhook_url: string;
  method: string;
  headers: [string, string][];
  body: unknown;
}

const METHODS = [{ value: '', label: 'Unchanged (POST)' }, ...['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => ({ value: m, label: m }))];

export function TransformFields({ form, onChange }: { form: ActionForm; onChange: (t: TransformForm) => void }) {
  const t = form.transform;
  const set = (patch: Partial<TransformForm>) => onChange({ ...t, ...patch });
  const [sample, setSample] = useState(() => samplePayload(form));
  const [sampleEnv, setSampleEnv] = useState('');
  const [result, setResult] = useState<TransformedRequest | null>(null);
  const preview = useAction(
    useCallback(async () => {
      setResult(null);
      // The sample request is a GET until a method is set; the engine calls handlers with POST.
      const body = parseJson(sample, 'Sample input');
      setResult(
        await callMetadata<TransformedRequest>('test_webhook_transform', {
          webhook_url: form.handler.trim(),
          body,
          // The engine reads only these, never its own environment, as the well-known engine does.
          env: pairsOf(sampleEnv),
          request_transform: requestTransformOf({ ...t, enabled: true, method: t.method || 'POST' }),
        }),
      );
    }, [sample, sampleEnv, form.handler, t]),
  );
  return (
    <fieldset>
      <legend>Request and response transforms</legend>
      <Checkbox label="Transform the request" checked={t.enabled} onChange={(e) => set({ enabled: e.target.checked })} />
      {t.enabled && (
        <>
          <div className="row">
            <Select label="Request method" value={t.method} options={METHODS} onChange={(e) => set({ method: e.target.value })} />
            <TextField label="Request URL template" value={t.url} placeholder="{{$base_url}}/login" onChange={(e) => set({ url: e.target.value })} />
          </div>
          <div className="row">
            <TextArea label="Query params" rows={2} value={t.queryParams} placeholder="id={{$body.input.id}}" onChange={(e) => set({ queryParams: e.target.value })} />
            <TextArea label="Add headers" rows={2} value={t.addHeaders} placeholder="x-user-id={{$session_variables['x-service-user-id']}}" onChange={(e) => set({ addHeaders: e.target.value })} />
            <TextField label="Remove headers" value={t.removeHeaders} placeholder="x-unwanted, cookie" onChange={(e) => set({ removeHeaders: e.target.value })} />
          </div>
          <TextArea label="Request body template" rows={5} value={t.body} placeholder={'{"username": {{$body.input.username}}}'} onChange={(e) => set({ body: e.target.value })} />
          <TextArea label="Response body template" rows={3} value={t.responseBody} placeholder={'{"accessToken": {{$body.token}}}'} onChange={(e) => set({ responseBody: e.target.value })} />
          <TextArea label="Sample input" rows={8} value={sample} onChange={(e) => setSample(e.target.value)} />
          <TextArea label="Sample env variables" rows={2} value={sampleEnv} placeholder="ACTION_BASE_URL=http://localhost:3000" onChange={(e) => setSampleEnv(e.target.value)} />
          <div className="row">
            <button type="button" className="secondary" disabled={preview.busy} onClick={() => void preview.run()}>
              Preview
            </button>
            <button type="button" className="secondary" onClick={() => setSample(samplePayload(form))}>
              Sample from the definition
            </button>
          </div>
          <ErrorNote error={preview.error} />
          {result && (
            <pre className="code" aria-label="Transformed request">
              {[`${result.method} ${result.webhook_url}`, ...result.headers.map(([n, v]) => `${n}: ${v}`), '', JSON.stringify(result.body, null, 2)].join('\n')}
            </pre>
          )}
        </>
      )}
    </fieldset>
  );
}
