/**
 * Scheduled events (a cron trigger's, or the one-off ones): those still to be delivered, each
 * of which can be deleted, those processed (delivered, failed, or dead: due longer ago than
 * their tolerance), each with its invocations, and their invocation logs.
 */
import { useCallback } from 'react';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { useAction } from '../../ui/useAction';
import { deleteScheduledEvent, scheduledEvents, scheduledInvocations, type ScheduledKind } from './api';
import { EventsTable } from './LogTables';
import { InvocationLogsTab, PagedLog, usePagedLog } from './PagedLog';

export function ScheduledEventsTab({ type, trigger, processed }: { type: ScheduledKind; trigger?: string; processed: boolean }) {
  const events = usePagedLog((page) => scheduledEvents(type, processed, trigger, page), [type, trigger, processed]);
  const invocations = useCallback((id: string) => scheduledInvocations(type, trigger, id), [type, trigger]);
  const remove = useAction(async (id: string) => {
    await deleteScheduledEvent(type, id);
    await events.reload();
  });
  return (
    <PagedLog log={events} error={remove.error}>
      {(rows) => (
        <EventsTable
          label={processed ? 'Processed events' : 'Pending events'}
          time="Scheduled at"
          events={rows}
          invocations={invocations}
          actions={processed ? undefined : (e) => <ConfirmButton label="Delete" question={`Delete scheduled event ${e.id}?`} busy={remove.busy} onConfirm={() => remove.run(e.id)} />}
        />
      )}
    </PagedLog>
  );
}

export const ScheduledInvocationsTab = ({ type, trigger }: { type: ScheduledKind; trigger?: string }) => (
  <InvocationLogsTab load={(page) => scheduledInvocations(type, trigger, undefined, page)} deps={[type, trigger]} />
);
