/**
 * The tables of a trigger's events and invocation logs, shared by event triggers, cron triggers
 * and one-off events (the well-known engine's console shows them alike): an invocation's request
 * and response, and an event's payload, open on demand.
 */
import { useState, type ReactNode } from 'react';
import { ErrorNote } from '../../ui/ErrorNote';
import { useLoad } from '../../ui/useLoad';
import type { Invocation, TriggerEvent } from './api';
import { utcTime } from './time';

function Json({ summary, value }: { summary: string; value: unknown }) {
  return (
    <details>
      <summary>{summary}</summary>
      <pre className="code">{JSON.stringify(value, null, 2)}</pre>
    </details>
  );
}

/** One event's invocations, read when opened. */
function EventInvocations({ event, load }: { event: string; load: (event: string) => Promise<Invocation[]> }) {
  const [open, setOpen] = useState(false);
  return (
    <details onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Invocations</summary>
      {open && <LoadedInvocations event={event} load={load} />}
    </details>
  );
}

function LoadedInvocations({ event, load }: { event: string; load: (event: string) => Promise<Invocation[]> }) {
  const invocations = useLoad(() => load(event), [event, load]);
  return (
    <>
      <ErrorNote error={invocations.error} />
      {invocations.data && <InvocationsTable label={`Invocations of event ${event}`} invocations={invocations.data} ofOneEvent />}
    </>
  );
}

/** `actions`: the buttons of one event (redeliver, delete); `invocations`: how to read an event's invocations. */
export function EventsTable({
  label,
  events,
  time = 'Created',
  actions,
  invocations,
}: {
  label: string;
  events: (TriggerEvent & { scheduled_time?: string })[];
  time?: string;
  actions?: (e: TriggerEvent) => ReactNode;
  invocations?: (event: string) => Promise<Invocation[]>;
}) {
  if (events.length === 0) return <p className="empty">No events.</p>;
  return (
    <div className="table-scroll">
      <table aria-label={label} className="events-table">
        <thead>
          <tr>
            <th>Event id</th>
            <th>{time}</th>
            <th>Status</th>
            <th>Tries</th>
            <th>Payload</th>
            {invocations && <th>Invocations</th>}
            {actions && <th>Actions</th>}
          </tr>
        </thead>
        <tbody>
          {events.map((e) => (
            <tr key={e.id}>
              <td className="mono">{e.id}</td>
              <td>{utcTime(e.scheduled_time ?? e.created_at)}</td>
              <td>
                <span className={`status status-${e.status}`}>{e.status}</span>
                {e.next_retry_at && <div className="muted">next try {utcTime(e.next_retry_at)}</div>}
              </td>
              <td>{e.tries}</td>
              <td>
                <Json summary="Payload" value={e.payload} />
              </td>
              {invocations && (
                <td>
                  <EventInvocations event={e.id} load={invocations} />
                </td>
              )}
              {actions && <td>{actions(e)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** `ofOneEvent`: the invocations of one event (its id is not repeated on each). */
export function InvocationsTable({ label = 'Invocation logs', invocations, ofOneEvent = false }: { label?: string; invocations: Invocation[]; ofOneEvent?: boolean }) {
  if (invocations.length === 0) return <p className="empty">No invocations.</p>;
  return (
    <div className="table-scroll">
      <table aria-label={label} className="events-table">
        <thead>
          <tr>
            <th>Status</th>
            <th>Time</th>
            {!ofOneEvent && <th>Event id</th>}
            <th>Request</th>
            <th>Response</th>
          </tr>
        </thead>
        <tbody>
          {invocations.map((i) => (
            <tr key={i.id}>
              <td>
                <span className={`status ${i.status !== null && i.status >= 200 && i.status < 300 ? 'status-delivered' : 'status-error'}`}>{i.status ?? 'no answer'}</span>
              </td>
              <td>{utcTime(i.created_at)}</td>
              {!ofOneEvent && <td className="mono">{i.event_id}</td>}
              <td>
                <Json summary="Request" value={i.request} />
              </td>
              <td>
                <Json summary="Response" value={i.response} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
