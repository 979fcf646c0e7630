/**
 * Creating a cron trigger, or modifying one (`create_cron_trigger` with `replace`): name,
 * webhook, schedule (with its next runs), payload, retry configuration, headers, an optional
 * request transform, whether it goes into the exported metadata, and a comment, as the
 * well-known engine's console asks. A response transform (not shown) is kept when modifying.
 */
import { useState, type FormEvent } from 'react';
import { metadata } from '../../api/client';
import { useMetadata } from '../../api/metadata';
import { navigate, pathOf } from '../../app/router';
import { ErrorNote } from '../../ui/ErrorNote';
import { Checkbox, TextArea, TextField } from '../../ui/forms';
import { useAction } from '../../ui/useAction';
import type { CronTrigger } from './api';
import { CronPreview } from './CronPreview';
import { configuredHeaders, HeaderListEditor, headerRows } from '../../ui/HeaderListEditor';
import { jsonText, parseJsonText } from './jsonText';
import { RequestTransformField } from './RequestTransformField';
import { RetryFields, retryArg, retryText } from './RetryFields';

export const SCHEDULED_RETRY = [
  { key: 'num_retries', label: 'Number of retries' },
  { key: 'retry_interval_seconds', label: 'Retry interval (seconds)' },
  { key: 'timeout_seconds', label: 'Timeout (seconds)' },
  { key: 'tolerance_seconds', label: 'Tolerance (seconds)' },
];

/** The engine's defaults (the well-known engine's), shown filled in. */
export const SCHEDULED_RETRY_DEFAULTS = { num_retries: 0, retry_interval_seconds: 10, timeout_seconds: 60, tolerance_seconds: 21600 };

export function CronTriggerForm({ existing, onSaved }: { existing?: CronTrigger; onSaved: () => Promise<void> }) {
  const { refresh } = useMetadata();
  const [name, setName] = useState(existing?.name ?? '');
  const [webhook, setWebhook] = useState(existing?.webhook ?? '');
  const [schedule, setSchedule] = useState(existing?.schedule ?? '*/5 * * * *');
  const [payload, setPayload] = useState(jsonText(existing?.payload));
  const [retry, setRetry] = useState(retryText(existing?.retry_conf ?? SCHEDULED_RETRY_DEFAULTS, SCHEDULED_RETRY.map((r) => r.key)));
  const [headers, setHeaders] = useState(headerRows(existing?.headers));
  const [include, setInclude] = useState(existing?.include_in_metadata ?? true);
  const [comment, setComment] = useState(existing?.comment ?? '');
  const [transform, setTransform] = useState(jsonText(existing?.request_transform));

  const [saved, setSaved] = useState(false);
  const save = useAction(async () => {
    setSaved(false);
    const body = parseJsonText('Payload', payload);
    const requestTransform = parseJsonText('Request transform', transform);
    await metadata('create_cron_trigger', {
      ...(existing?.response_transform !== undefined ? { response_transform: existing.response_transform } : {}),
      name,
      webhook: webhook.trim(),
      schedule: schedule.trim(),
      ...(body === undefined ? {} : { payload: body }),
      retry_conf: retryArg(retry),
      headers: configuredHeaders(headers),
      ...(requestTransform === undefined ? {} : { request_transform: requestTransform }),
      include_in_metadata: include,
      ...(comment.trim() === '' ? {} : { comment }),
      ...(existing ? { replace: true } : {}),
    });
    await Promise.all([refresh(), onSaved()]);
    if (existing) setSaved(true);
    else navigate(pathOf('events', 'cron', name, 'pending'));
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save.run();
  };

  return (
    <form onSubmit={submit} aria-label={existing ? 'Modify cron trigger' : 'Create cron trigger'}>
      <TextField label="Trigger name" value={name} onChange={(e) => setName(e.target.value)} disabled={!!existing} required />
      <TextField label="Webhook URL" value={webhook} onChange={(e) => setWebhook(e.target.value)} placeholder="https://… or {{ENV_VAR}}/path" />
      <TextField label="Cron schedule" value={schedule} onChange={(e) => setSchedule(e.target.value)} />
      <CronPreview schedule={schedule} />
      <TextArea label="Payload (JSON)" value={payload} onChange={(e) => setPayload(e.target.value)} />
      <RetryFields fields={SCHEDULED_RETRY} value={retry} onChange={setRetry} />
      <HeaderListEditor rows={headers} onChange={setHeaders} />
      <RequestTransformField value={transform} onChange={setTransform} />
      <Checkbox label="Include this trigger in the metadata" checked={include} onChange={(e) => setInclude(e.target.checked)} />
      <TextField label="Comment" value={comment} onChange={(e) => setComment(e.target.value)} />
      <ErrorNote error={save.error} />
      {saved && (
        <p className="notice" role="status">
          Cron trigger saved.
        </p>
      )}
      <button type="submit" disabled={save.busy}>
        {existing ? 'Save cron trigger' : 'Create cron trigger'}
      </button>
    </form>
  );
}
