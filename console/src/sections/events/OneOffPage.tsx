/** One-off scheduled events: those to come (each can be deleted), those processed, their invocation logs, and a form to schedule one. */
import { Page } from '../../ui/forms';
import { OneOffForm } from './OneOffForm';
import { ScheduledEventsTab, ScheduledInvocationsTab } from './ScheduledLogTabs';
import { Tabs } from '../../ui/Tabs';

const TABS = [
  { path: 'pending', title: 'Pending events' },
  { path: 'processed', title: 'Processed events' },
  { path: 'logs', title: 'Invocation logs' },
  { path: 'add', title: 'Schedule an event' },
];

export function OneOffPage({ tab }: { tab: string }) {
  return (
    <Page title="One-off scheduled events">
      <Tabs label="One-off scheduled events" base={['events', 'one-off']} tabs={TABS} current={tab} />
      {tab === 'pending' && <ScheduledEventsTab key="pending" type="one_off" processed={false} />}
      {tab === 'processed' && <ScheduledEventsTab key="processed" type="one_off" processed />}
      {tab === 'logs' && <ScheduledInvocationsTab type="one_off" />}
      {tab === 'add' && <OneOffForm />}
    </Page>
  );
}
