/** The Events section's side navigation, as the well-known engine's console has it: event triggers, cron triggers, one-off scheduled events. */
import { Link, pathOf } from '../../app/router';
import type { CronTrigger, TriggerAt } from './api';

export function EventsNav({ triggers, cron, current }: { triggers: TriggerAt[]; cron: CronTrigger[]; current: string[] }) {
  const [kind, a, b] = current;
  const here = (on: boolean) => (on ? ('page' as const) : undefined);
  return (
    <nav className="side-nav" aria-label="Events">
      <h2>
        <Link to="/events">Event triggers</Link>
      </h2>
      <Link to="/events/data/add" aria-current={here(kind === 'data' && a === 'add' && !b)}>
        Create event trigger
      </Link>
      <ul>
        {triggers.map((t) => (
          <li key={`${t.source}/${t.trigger.name}`}>
            <Link to={pathOf('events', 'data', t.source, t.trigger.name, 'processed')} aria-current={here(kind === 'data' && a === t.source && b === t.trigger.name)}>
              {t.trigger.name}
            </Link>
          </li>
        ))}
      </ul>
      <h2>Cron triggers</h2>
      <Link to="/events/cron/add" aria-current={here(kind === 'cron' && a === 'add' && !b)}>
        Create cron trigger
      </Link>
      <ul>
        {cron.map((t) => (
          <li key={t.name}>
            <Link to={pathOf('events', 'cron', t.name, 'pending')} aria-current={here(kind === 'cron' && a === t.name && !!b)}>
              {t.name}
            </Link>
          </li>
        ))}
      </ul>
      <h2>
        <Link to="/events/one-off/pending" aria-current={here(kind === 'one-off')}>
          One-off scheduled events
        </Link>
      </h2>
    </nav>
  );
}
