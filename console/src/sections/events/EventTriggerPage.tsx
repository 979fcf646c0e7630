/**
 * An event trigger's page, with the well-known engine's console's tabs: its pending and
 * processed events (each can be redelivered), its invocation logs, "Invoke" for a trigger
 * that can be invoked from the console, and "Modify" (with delete).
 */
import { useMetadata } from '../../api/metadata';
import { Page } from '../../ui/forms';
import { eventTriggers } from './api';
import { EventTriggerForm } from './EventTriggerForm';
import { DeleteButton } from './DeleteButton';
import { InvokeTab } from './InvokeTab';
import { TriggerEventsTab, TriggerInvocationsTab } from './TriggerLogTabs';
import { Tabs } from '../../ui/Tabs';
import { deleteEventTrigger } from './api';

export function EventTriggerPage({ source, name, tab }: { source: string; name: string; tab: string }) {
  const { metadata } = useMetadata();
  const at = eventTriggers(metadata).find((t) => t.source === source && t.trigger.name === name);
  if (!metadata) return <p className="loading">Loading…</p>;
  if (!at)
    return (
      <Page title={name}>
        <p>There is no event trigger {name} in source {source}.</p>
      </Page>
    );
  const tabs = [
    { path: 'pending', title: 'Pending events' },
    { path: 'processed', title: 'Processed events' },
    { path: 'logs', title: 'Invocation logs' },
    ...(at.trigger.definition.enable_manual === true ? [{ path: 'invoke', title: 'Invoke' }] : []),
    { path: 'modify', title: 'Modify' },
  ];
  return (
    <Page title={name}>
      <p className="muted">
        On {at.table.schema}.{at.table.name} in source {at.source}
      </p>
      <Tabs label="Event trigger" base={['events', 'data', source, name]} tabs={tabs} current={tab} />
      {tab === 'pending' && <TriggerEventsTab key="pending" at={at} processed={false} />}
      {tab === 'processed' && <TriggerEventsTab key="processed" at={at} processed />}
      {tab === 'logs' && <TriggerInvocationsTab at={at} />}
      {tab === 'invoke' && <InvokeTab at={at} />}
      {tab === 'modify' && (
        <>
          <EventTriggerForm key={`${source}/${name}`} existing={at} />
          <DeleteButton what={`event trigger ${name}`} remove={() => deleteEventTrigger(at)} />
        </>
      )}
    </Page>
  );
}
