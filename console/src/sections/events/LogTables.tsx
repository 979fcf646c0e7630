/**
 * The tables of a trigger's events and invocation logs, shared by event triggers, cron triggers
 * and one-off events (the well-known engine's console shows them alike): an invocation's request
 * and response, and an event's payload, open on demand.
 */
import type { ReactNode } from 'react';
import type { Invocation, TriggerEvent } from './api';

function Json({ summary, value }: { summary: string; value: unknown }) {
  return (
    <details>
      <summary>{summary}</summary>
      <pre className="code">{JSON.stringify(value, null, 2)}</pre>
    </details>
  );
}

/** `actions`: the buttons of one event (redeliver, delete). */
export function EventsTable({ label, events, time = 'Created', actions }: { label: string; events: (TriggerEvent & { scheduled_time?: string })[]; time?: string; actions?: (e: TriggerEvent) => ReactNode }) {
  if (events.length === 0) return <p className="empty">No events.</p>;
  return (
    <table aria-label={label} className="events-table">
      <thead>
        <tr>
          <th>Event id</th>
          <th>{time}</th>
          <th>Status</th>
          <th>Tries</th>
          <th>Payload</th>
          {actions && <th>Actions</th>}
        </tr>
      </thead>
      <tbody>
        {events.map((e) => (
          <tr key={e.id}>
            <td className="mono">{e.id}</td>
            <td>{e.scheduled_time ?? e.created_at}</td>
            <td>
              <span className={`status status-${e.status}`}>{e.status}</span>
              {e.next_retry_at && <div className="muted">next try {e.next_retry_at}</div>}
            </td>
            <td>{e.tries}</td>
            <td>
              <Json summary="Payload" value={e.payload} />
            </td>
            {actions && <td>{actions(e)}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function InvocationsTable({ invocations }: { invocations: Invocation[] }) {
  if (invocations.length === 0) return <p className="empty">No invocations.</p>;
  return (
    <table aria-label="Invocation logs" className="events-table">
      <thead>
        <tr>
          <th>Status</th>
          <th>Time</th>
          <th>Event id</th>
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
            <td>{i.created_at}</td>
            <td className="mono">{i.event_id}</td>
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
  );
}
