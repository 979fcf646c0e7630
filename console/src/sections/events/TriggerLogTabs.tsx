/** An event trigger's events (pending or processed, each with "Redeliver" and its invocations) and its invocation logs, read from its source's event log. */
import { useCallback, useState } from 'react';
import { ErrorNote } from '../../ui/ErrorNote';
import { useAction } from '../../ui/useAction';
import { useLoad } from '../../ui/useLoad';
import { redeliverEvent, triggerEvents, triggerInvocations, type TriggerAt } from './api';
import { EventsTable, InvocationsTable } from './LogTables';
import { Pager } from './Pager';
import { RefreshBar } from './RefreshBar';

export function TriggerEventsTab({ at, processed }: { at: TriggerAt; processed: boolean }) {
  const [page, setPage] = useState(0);
  const events = useLoad(() => triggerEvents(at, processed, page), [at.source, at.trigger.name, processed, page]);
  const invocations = useCallback((id: string) => triggerInvocations(at, id), [at]);
  const redeliver = useAction(async (id: string) => {
    await redeliverEvent(at, id);
    await events.reload();
  });
  return (
    <>
      <RefreshBar reload={events.reload} loading={events.loading} />
      <ErrorNote error={events.error ?? redeliver.error} />
      {events.data && (
        <>
          <EventsTable
            label={processed ? 'Processed events' : 'Pending events'}
            events={events.data}
            invocations={invocations}
            actions={(e) => (
              <button type="button" className="secondary" onClick={() => void redeliver.run(e.id)} disabled={redeliver.busy} aria-label={`Redeliver event ${e.id}`}>
                Redeliver
              </button>
            )}
          />
          <Pager page={page} setPage={setPage} shown={events.data.length} />
        </>
      )}
    </>
  );
}

export function TriggerInvocationsTab({ at }: { at: TriggerAt }) {
  const [page, setPage] = useState(0);
  const logs = useLoad(() => triggerInvocations(at, undefined, page), [at.source, at.trigger.name, page]);
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
