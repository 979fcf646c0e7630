/** A cron trigger's page: its events to come and processed, its invocation logs, and "Modify" (with delete). */
import { metadata } from '../../api/client';
import { Page } from '../../ui/forms';
import type { CronTrigger } from './api';
import { CronTriggerForm } from './CronTriggerForm';
import { DeleteButton } from './DeleteButton';
import { ScheduledEventsTab, ScheduledInvocationsTab } from './ScheduledLogTabs';
import { Tabs } from '../../ui/Tabs';

const TABS = [
  { path: 'pending', title: 'Pending events' },
  { path: 'processed', title: 'Processed events' },
  { path: 'logs', title: 'Invocation logs' },
  { path: 'modify', title: 'Modify' },
];

export function CronTriggerPage({ trigger, tab, reload }: { trigger: CronTrigger; tab: string; reload: () => Promise<void> }) {
  return (
    <Page title={trigger.name}>
      <p className="muted">
        Cron trigger on <code>{trigger.schedule}</code> calling {trigger.webhook}
        {trigger.comment ? ` (${trigger.comment})` : ''}
      </p>
      <Tabs label="Cron trigger" base={['events', 'cron', trigger.name]} tabs={TABS} current={tab} />
      {tab === 'pending' && <ScheduledEventsTab key="pending" type="cron" trigger={trigger.name} processed={false} />}
      {tab === 'processed' && <ScheduledEventsTab key="processed" type="cron" trigger={trigger.name} processed />}
      {tab === 'logs' && <ScheduledInvocationsTab type="cron" trigger={trigger.name} />}
      {tab === 'modify' && (
        <>
          <CronTriggerForm key={trigger.name} existing={trigger} onSaved={reload} />
          <DeleteButton
            what={`cron trigger ${trigger.name}`}
            remove={async () => {
              await metadata('delete_cron_trigger', { name: trigger.name });
              await reload();
            }}
          />
        </>
      )}
    </Page>
  );
}
