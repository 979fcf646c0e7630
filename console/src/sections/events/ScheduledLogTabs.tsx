/**
 * Scheduled events (a cron trigger's, or the one-off ones): those still to be delivered, each
 * of which can be deleted, those processed (delivered, failed, or dead: due longer ago than
 * their tolerance), each with its invocations, and their invocation logs.
 */
import { useCallback, useState } from 'react';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { ErrorNote } from '../../ui/ErrorNote';
import { useAction } from '../../ui/useAction';
import { useLoad } from '../../ui/useLoad';
import { deleteScheduledEvent, scheduledEvents, scheduledInvocations, type ScheduledKind } from './api';
import { EventsTable, InvocationsTable } from './LogTables';
import { Pager } from './Pager';
import { RefreshBar } from './RefreshBar';

export function ScheduledEventsTab({ type, trigger, processed }: { type: ScheduledKind; trigger?: string; processed: boolean }) {
  const [page, setPage] = useState(0);
  const events = useLoad(() => scheduledEvents(type, processed, trigger, page), [type, trigger, processed, page]);
  const invocations = useCallback((id: string) => scheduledInvocations(type, trigger, id), [type, trigger]);
  const remove = useAction(async (id: string) => {
    await deleteScheduledEvent(type, id);
    await events.reload();
  });
  return (
    <>
      <RefreshBar reload={events.reload} loading={events.loading} />
      <ErrorNote error={events.error ?? remove.error} />
      {events.data && (
        <>
          <EventsTable
            label={processed ? 'Processed events' : 'Pending events'}
            time="Scheduled at"
            events={events.data}
            invocations={invocations}
            actions={
              processed
                ? undefined
                : (e) => <ConfirmButton label="Delete" question={`Delete scheduled event ${e.id}?`} busy={remove.busy} onConfirm={() => remove.run(e.id)} />
            }
          />
          <Pager page={page} setPage={setPage} shown={events.data.length} />
        </>
      )}
    </>
  );
}

export function ScheduledInvocationsTab({ type, trigger }: { type: ScheduledKind; trigger?: string }) {
  const [page, setPage] = useState(0);
  const logs = useLoad(() => scheduledInvocations(type, trigger, undefined, page), [type, trigger, page]);
  return (
    <>
      <RefreshBar reload={logs.reload} loading={logs.loading} />
      <ErrorNote error={logs.error} />
      {logs.data && (
        <>
          <InvocationsTable invocations={logs.data} />
          <Pager page={page} setPage={setPage} shown={logs.data.length} />
        </>
      )}
    </>
  );
}
