/**
 * Creating a cron trigger, or modifying one (`create_cron_trigger` with `replace`): name,
 * webhook, schedule (with its next runs), payload, retry configuration, headers, an optional
 * request transform, whether it goes into the exported metadata, and a comment, as the
 * well-known engine's console asks. A response transform (not shown) is kept when modifying.
 */
import { useState } from 'react';
import { metadata } from '../../api/client';
import { useMetadata } from '../../api/metadata';
import { navigate, pathOf } from '../../app/router';
import { Checkbox, TextArea, TextField } from '../../ui/forms';
import { jsonText, parseOptionalJson } from '../../ui/jsonText';
import { SubmitForm } from '../../ui/SubmitForm';
import { useAction } from '../../ui/useAction';
import type { CronTrigger } from './api';
import { CronPreview } from './CronPreview';
import { deliveryArgs, DeliveryFields, deliveryOf } from './Delivery';
import { SCHEDULED_RETRY } from './RetryFields';

export function CronTriggerForm({ existing, onSaved }: { existing?: CronTrigger; onSaved: () => Promise<void> }) {
  const { refresh } = useMetadata();
  const [name, setName] = useState(existing?.name ?? '');
  const [webhook, setWebhook] = useState(existing?.webhook ?? '');
  const [schedule, setSchedule] = useState(existing?.schedule ?? '*/5 * * * *');
  const [payload, setPayload] = useState(jsonText(existing?.payload));
  const [delivery, setDelivery] = useState(deliveryOf(SCHEDULED_RETRY, existing));
  const [include, setInclude] = useState(existing?.include_in_metadata ?? true);
  const [comment, setComment] = useState(existing?.comment ?? '');

  const [saved, setSaved] = useState(false);
  const save = useAction(async () => {
    setSaved(false);
    const body = parseOptionalJson(payload, 'Payload');
    const delivered = deliveryArgs(delivery);
    await metadata('create_cron_trigger', {
      ...(existing?.response_transform !== undefined ? { response_transform: existing.response_transform } : {}),
      name,
      webhook: webhook.trim(),
      schedule: schedule.trim(),
      ...(body === undefined ? {} : { payload: body }),
      ...delivered,
      include_in_metadata: include,
      ...(comment.trim() === '' ? {} : { comment }),
      ...(existing ? { replace: true } : {}),
    });
    await Promise.all([refresh(), onSaved()]);
    if (existing) setSaved(true);
    else navigate(pathOf('events', 'cron', name, 'pending'));
  });
  return (
    <SubmitForm label={existing ? 'Modify cron trigger' : 'Create cron trigger'} call={save} submit={existing ? 'Save cron trigger' : 'Create cron trigger'} notice={saved ? 'Cron trigger saved.' : undefined}>
      <TextField label="Trigger name" value={name} onChange={(e) => setName(e.target.value)} disabled={!!existing} required />
      <TextField label="Webhook URL" value={webhook} onChange={(e) => setWebhook(e.target.value)} placeholder="https://… or {{ENV_VAR}}/path" />
      <TextField label="Cron schedule" value={schedule} onChange={(e) => setSchedule(e.target.value)} />
      <CronPreview schedule={schedule} />
      <TextArea label="Payload (JSON)" value={payload} onChange={(e) => setPayload(e.target.value)} />
      <DeliveryFields retry={SCHEDULED_RETRY} value={delivery} onChange={setDelivery} />
      <Checkbox label="Include this trigger in the metadata" checked={include} onChange={(e) => setInclude(e.target.checked)} />
      <TextField label="Comment" value={comment} onChange={(e) => setComment(e.target.value)} />
    </SubmitForm>
  );
}
