/** SQL Server's events face: a source's event log (AFTER triggers into it; READPAST/UPDLOCK leases). */
import type { EventsFace } from '../../faces/events.js';
import { MssqlEventStore } from '../event-log.js';

export const events: EventsFace = { kind: 'mssql', connectEvents: (configuration, maxConnections) => new MssqlEventStore(configuration, maxConnections) };
