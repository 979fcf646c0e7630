/**
 * Creating an event trigger, or modifying one (`<kind>_create_event_trigger` with `replace`),
 * with the well-known engine's console's fields: name, source and tracked table, operations,
 * webhook (URL or environment variable), retry configuration, headers and an optional request
 * transform. What the form does not show (payload columns, cleanup, response transform,
 * `trigger_on_replication`) is kept when modifying.
 */
import { useState } from 'react';
import { metadata } from '../../api/client';
import { tableKey, useMetadata, type EventTrigger } from '../../api/metadata';
import { navigate, pathOf } from '../../app/router';
import { Select, TextField } from '../../ui/forms';
import { SubmitForm } from '../../ui/SubmitForm';
import { useAction } from '../../ui/useAction';
import { useLoad } from '../../ui/useLoad';
import { commandPrefix, tableColumns, type TriggerAt } from './api';
import { deliveryArgs, DeliveryFields, deliveryOf } from './Delivery';
import { OperationsFields, operationsOf, type Operations } from './OperationsFields';
import { EVENT_TRIGGER_RETRY } from './RetryFields';

/** What a stored trigger has that the form does not show, sent again as it is when modifying. */
const kept = (stored: EventTrigger | undefined): Partial<EventTrigger> =>
  Object.fromEntries((['cleanup_config', 'response_transform', 'trigger_on_replication'] as const).filter((k) => stored?.[k] !== undefined).map((k) => [k, stored?.[k]]));

export function EventTriggerForm({ existing }: { existing?: TriggerAt }) {
  const { metadata: m, refresh } = useMetadata();
  const sources = (m?.sources ?? []).filter((s) => s.kind === 'postgres' || s.kind === 'mssql' || s.kind === 'citus');
  const stored = existing?.trigger;
  const [name, setName] = useState(stored?.name ?? '');
  const [source, setSource] = useState(existing?.source ?? sources[0]?.name ?? '');
  const tables = sources.find((s) => s.name === source)?.tables.map((t) => t.table) ?? [];
  const [table, setTable] = useState(existing ? tableKey(existing.table) : '');
  const chosen = tables.find((t) => tableKey(t) === table) ?? tables[0];
  const [ops, setOps] = useState<Operations>(operationsOf(stored?.definition));
  const [webhookFrom, setWebhookFrom] = useState(stored?.webhook_from_env !== undefined ? 'env' : 'url');
  const [webhook, setWebhook] = useState(stored?.webhook ?? stored?.webhook_from_env ?? '');
  const [delivery, setDelivery] = useState(deliveryOf(EVENT_TRIGGER_RETRY, stored));
  const [saved, setSaved] = useState(false);
  const columns = useLoad(async () => (chosen ? tableColumns(source, chosen) : []), [source, chosen?.schema, chosen?.name]);

  const save = useAction(async () => {
    if (!chosen) throw new Error('choose a tracked table');
    const kind = sources.find((s) => s.name === source)?.kind ?? 'postgres';
    const definition = stored?.definition ?? {};
    // Each operation keeps its stored `payload` columns.
    const op = (key: string, on: boolean, columns: '*' | string[]) => (on ? { [key]: { ...(definition[key] as object | undefined), columns } } : {});
    const delivered = deliveryArgs(delivery);
    setSaved(false);
    await metadata(`${commandPrefix(kind)}_create_event_trigger`, {
      ...kept(stored),
      name,
      source,
      table: chosen,
      ...op('insert', ops.insert, '*'),
      ...op('update', ops.update, ops.updateColumns),
      ...op('delete', ops.delete, '*'),
      enable_manual: ops.manual,
      // A blank webhook is sent as none: the engine names what is missing.
      ...(webhook.trim() === '' ? {} : webhookFrom === 'env' ? { webhook_from_env: webhook.trim() } : { webhook: webhook.trim() }),
      ...delivered,
      ...(existing ? { replace: true } : {}),
    });
    await refresh();
    if (existing) setSaved(true);
    else navigate(pathOf('events', 'data', source, name, 'processed'));
  });
  return (
    <SubmitForm label={existing ? 'Modify event trigger' : 'Create event trigger'} call={save} submit={existing ? 'Save event trigger' : 'Create event trigger'} notice={saved ? 'Event trigger saved.' : undefined}>
      <TextField label="Trigger name" value={name} onChange={(e) => setName(e.target.value)} disabled={!!existing} required />
      <Select label="Source" value={source} options={sources.map((s) => s.name)} onChange={(e) => (setSource(e.target.value), setTable(''))} disabled={!!existing} />
      <Select label="Table" value={chosen ? tableKey(chosen) : ''} options={tables.map(tableKey)} onChange={(e) => setTable(e.target.value)} disabled={!!existing} />
      <OperationsFields value={ops} onChange={setOps} columns={columns.data ?? []} />
      <fieldset>
        <legend>Webhook (HTTP/S) handler</legend>
        <div className="row webhook-row">
          <Select
            label="Webhook from"
            value={webhookFrom}
            options={[
              { value: 'url', label: 'URL' },
              { value: 'env', label: 'Environment variable' },
            ]}
            onChange={(e) => setWebhookFrom(e.target.value)}
          />
          <TextField label={webhookFrom === 'env' ? 'Webhook env var' : 'Webhook URL'} value={webhook} onChange={(e) => setWebhook(e.target.value)} placeholder={webhookFrom === 'env' ? 'MY_WEBHOOK_URL' : 'https://…'} />
        </div>
      </fieldset>
      <DeliveryFields retry={EVENT_TRIGGER_RETRY} value={delivery} onChange={setDelivery} />
    </SubmitForm>
  );
}
