/**
 * SQL Server as a `Backend` (driver `tedious`): configuration with a connection string,
 * introspection into the neutral catalog, queries as one T-SQL statement per root field
 * (FOR JSON PATH), mutations as one batch per field (OUTPUT INTO, the check inside its
 * transaction; upserts by `if_matched` as MERGE), live queries polled and multiplexed
 * (OPENJSON of the cohorts), event triggers as SQL Server triggers writing into an event log
 * in the source. Nested inserts, distinct_on, streaming, tracked functions and computed
 * fields are not written: capabilities say so, and what the IR asks beyond them answers
 * `not-supported` naming the backend.
 */
import { QUERY_CAPABILITIES, type Backend, type Capabilities } from '../backend.js';
import { mssqlSourceConfiguration } from './configuration.js';
import { MssqlAdminConnection, MssqlSourceConnection } from './connection.js';
import { dataError, isMssqlError, mssqlAdminError, serverErrors } from './errors.js';
import { eventStatements, MssqlEventStore } from './event-log.js';
import { notSupported } from './translate/context.js';
import { translateRootField } from './translate/select.js';
import { translateLiveField } from './translate/multiplexed.js';
import { CHECK_VIOLATION, translateMutation } from './translate/mutation.js';

const CAPABILITIES: Capabilities = Object.freeze({ ...QUERY_CAPABILITIES, mutations: true, returning: true, upsert: 'if_matched', eventTriggers: true, subscriptions: true });

export const mssql: Backend = {
  kind: 'mssql',
  capabilities: CAPABILITIES,
  decodeConfiguration: mssqlSourceConfiguration,
  usesPreparedStatements: () => false,
  translateRootField,
  translateLiveField,
  translateMutation,
  connect: (configuration, limits) => new MssqlSourceConnection(configuration, limits),
  connectAdmin: (configuration) => new MssqlAdminConnection(configuration),
  connectEvents: (configuration, maxConnections) => new MssqlEventStore(configuration, maxConnections),
  eventStatements,
  dmlStatement: () => {
    throw notSupported('the data operations of /v2/query');
  },
  dataError,
  isCheckViolation: (e) => serverErrors(e).some((x) => x.message.includes(CHECK_VIOLATION)),
  adminError: (e) => (isMssqlError(e) ? mssqlAdminError(e) : null),
};
