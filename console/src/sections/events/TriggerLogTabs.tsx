/** An event trigger's events (pending or processed, each with "Redeliver" and its invocations) and its invocation logs, read from its source's event log. */
import { useCallback } from 'react';
import { useAction } from '../../ui/useAction';
import { redeliverEvent, triggerEvents, triggerInvocations, type TriggerAt } from './api';
import { EventsTable } from './LogTables';
import { InvocationLogsTab, PagedLog, usePagedLog } from './PagedLog';

export function TriggerEventsTab({ at, processed }: { at: TriggerAt; processed: boolean }) {
  const events = usePagedLog((page) => triggerEvents(at, processed, page), [at.source, at.trigger.name, processed]);
  const invocations = useCallback((id: string) => triggerInvocations(at, id), [at]);
  const redeliver = useAction(async (id: string) => {
    await redeliverEvent(at, id);
    await events.reload();
  });
  return (
    <PagedLog log={events} error={redeliver.error}>
      {(rows) => (
        <EventsTable
          label={processed ? 'Processed events' : 'Pending events'}
          events={rows}
          invocations={invocations}
          actions={(e) => (
            <button type="button" className="secondary" onClick={() => void redeliver.run(e.id)} disabled={redeliver.busy} aria-label={`Redeliver event ${e.id}`}>
              Redeliver
            </button>
          )}
        />
      )}
    </PagedLog>
  );
}

export const TriggerInvocationsTab = ({ at }: { at: TriggerAt }) => <InvocationLogsTab load={(page) => triggerInvocations(at, undefined, page)} deps={[at.source, at.trigger.name]} />;
