/**
 * The Events section's routes (beside its side navigation, `EventsNav`):
 * - `/events`: the event triggers;
 * - `/events/data/add`: creating an event trigger;
 * - `/events/data/<source>/<trigger>/<tab>`: an event trigger's page (`EventTriggerPage`);
 * - `/events/cron/add`: creating a cron trigger;
 * - `/events/cron/<trigger>/<tab>`: a cron trigger's page (`CronTriggerPage`);
 * - `/events/one-off/<tab>`: the one-off scheduled events (`OneOffPage`).
 * Cron triggers are listed with `get_cron_triggers`: those left out of the metadata too.
 */
import type { SectionPage } from '../../app/sections';
import { useMetadata } from '../../api/metadata';
import { ErrorNote } from '../../ui/ErrorNote';
import { Page } from '../../ui/forms';
import { useLoad } from '../../ui/useLoad';
import { cronTriggers, eventTriggers } from './api';
import { CronTriggerForm } from './CronTriggerForm';
import { CronTriggerPage } from './CronTriggerPage';
import { EventsNav } from './EventsNav';
import { EventTriggerForm } from './EventTriggerForm';
import { EventTriggerPage } from './EventTriggerPage';
import { OneOffPage } from './OneOffPage';
import { TriggersOverview } from './TriggersOverview';

const EventsSection: SectionPage = ({ rest }) => {
  const { metadata } = useMetadata();
  const triggers = eventTriggers(metadata);
  const cron = useLoad(cronTriggers, []);
  const [kind, a, b, c] = rest;
  let page;
  if (kind === 'data' && a === 'add' && !b) page = metadata ? <Page title="Create event trigger"><EventTriggerForm /></Page> : <p className="loading">Loading…</p>;
  else if (kind === 'data' && a && b) page = <EventTriggerPage source={a} name={b} tab={c ?? 'processed'} />;
  else if (kind === 'cron' && a === 'add' && !b) page = <Page title="Create cron trigger"><CronTriggerForm onSaved={cron.reload} /></Page>;
  else if (kind === 'cron' && a) {
    const trigger = cron.data?.find((t) => t.name === a);
    page = trigger ? <CronTriggerPage trigger={trigger} tab={b ?? 'pending'} reload={cron.reload} /> : cron.loading ? <p className="loading">Loading…</p> : <Page title={a}><p>There is no cron trigger {a}.</p></Page>;
  } else if (kind === 'one-off') page = <OneOffPage tab={a ?? 'pending'} />;
  else page = <TriggersOverview triggers={triggers} />;
  return (
    <>
      <EventsNav triggers={triggers} cron={cron.data ?? []} current={rest} />
      <div className="page-area">
        <ErrorNote error={cron.error} />
        {page}
      </div>
    </>
  );
};
export default EventsSection;
