/** PostgreSQL's events face: a source's event log, leased by the trigger-delivery actor. */
import type { EventsFace } from '../../faces/events.js';
import { PgEventStore } from '../event-log.js';

export const events: EventsFace = { kind: 'postgres', connectEvents: (configuration, maxConnections) => new PgEventStore(configuration, maxConnections) };
