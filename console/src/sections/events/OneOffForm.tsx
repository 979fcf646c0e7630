/**
 * Scheduling a one-off event (`create_scheduled_event`): webhook, time (the browser's local
 * time, now by default), payload, retry configuration, headers, an optional request transform
 * and a comment, as the well-known engine's console asks.
 */
import { useState } from 'react';
import { metadata } from '../../api/client';
import { navigate } from '../../app/router';
import { TextArea, TextField } from '../../ui/forms';
import { parseOptionalJson } from '../../ui/jsonText';
import { SubmitForm } from '../../ui/SubmitForm';
import { useAction } from '../../ui/useAction';
import { deliveryArgs, DeliveryFields, deliveryOf } from './Delivery';
import { SCHEDULED_RETRY } from './RetryFields';

/** A `datetime-local` input's value for a time (local, to the second). */
function localInput(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

export function OneOffForm() {
  const [webhook, setWebhook] = useState('');
  const [time, setTime] = useState(() => localInput(new Date()));
  const [payload, setPayload] = useState('');
  const [delivery, setDelivery] = useState(deliveryOf(SCHEDULED_RETRY));
  const [comment, setComment] = useState('');

  const save = useAction(async () => {
    const body = parseOptionalJson(payload, 'Payload');
    const delivered = deliveryArgs(delivery);
    const at = new Date(time);
    if (Number.isNaN(at.getTime())) throw new Error('choose the time of the event');
    await metadata('create_scheduled_event', {
      webhook: webhook.trim(),
      schedule_at: at.toISOString(),
      ...(body === undefined ? {} : { payload: body }),
      ...delivered,
      ...(comment.trim() === '' ? {} : { comment }),
    });
    navigate('/events/one-off/pending');
  });
  return (
    <SubmitForm label="Schedule an event" call={save} submit="Schedule event">
      <TextField label="Webhook URL" value={webhook} onChange={(e) => setWebhook(e.target.value)} placeholder="https://… or {{ENV_VAR}}/path" />
      <TextField label="Time" type="datetime-local" step={1} value={time} onChange={(e) => setTime(e.target.value)} />
      <TextArea label="Payload (JSON)" value={payload} onChange={(e) => setPayload(e.target.value)} />
      <DeliveryFields retry={SCHEDULED_RETRY} value={delivery} onChange={setDelivery} />
      <TextField label="Comment" value={comment} onChange={(e) => setComment(e.target.value)} />
    </SubmitForm>
  );
}
