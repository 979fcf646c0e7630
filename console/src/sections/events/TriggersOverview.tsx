/** The Events section's start: every event trigger with its table, operations and webhook. */
import { Link, pathOf } from '../../app/router';
import { Page } from '../../ui/forms';
import type { TriggerAt } from './api';

const operations = (d: Record<string, unknown>) => [...['insert', 'update', 'delete'].filter((op) => d[op] !== undefined), ...(d.enable_manual === true ? ['manual'] : [])].join(', ');

export function TriggersOverview({ triggers }: { triggers: TriggerAt[] }) {
  return (
    <Page title="Event triggers" actions={<Link to="/events/data/add">Create event trigger</Link>}>
      {triggers.length === 0 ? (
        <p className="empty">No event triggers yet: an event trigger calls a webhook when rows of a table are inserted, updated or deleted.</p>
      ) : (
        <table aria-label="Event triggers">
          <thead>
            <tr>
              <th>Name</th>
              <th>Source</th>
              <th>Table</th>
              <th>Operations</th>
              <th>Webhook</th>
            </tr>
          </thead>
          <tbody>
            {triggers.map((t) => (
              <tr key={`${t.source}/${t.trigger.name}`}>
                <td>
                  <Link to={pathOf('events', 'data', t.source, t.trigger.name, 'processed')}>{t.trigger.name}</Link>
                </td>
                <td>{t.source}</td>
                <td>
                  {t.table.schema}.{t.table.name}
                </td>
                <td>{operations(t.trigger.definition)}</td>
                <td>{t.trigger.webhook ?? `from env ${t.trigger.webhook_from_env ?? ''}`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Page>
  );
}
