/**
 * SQL Server's admin face, and what the backend is (driver `tedious`): configuration with a connection string,
 * introspection into the neutral catalog, queries as one T-SQL statement per root field
 * (FOR JSON PATH), mutations as one batch per field (OUTPUT INTO, the check inside its
 * transaction; upserts by `if_matched` as MERGE), live queries polled and multiplexed
 * (OPENJSON of the cohorts), event triggers as SQL Server triggers writing into an event log
 * in the source. Nested inserts, distinct_on, streaming, tracked functions and computed
 * fields are not written: capabilities say so, and what the IR asks beyond them answers
 * `not-supported` naming the backend.
 */
import { QUERY_CAPABILITIES, type AdminFace, type Capabilities } from '../../faces/admin.js';
import { mssqlSourceConfiguration } from '../configuration.js';
import { MssqlAdminConnection } from '../connection.js';
import { isMssqlError, mssqlAdminError } from '../errors.js';
import { eventStatements } from '../event-log.js';
import { notSupported } from '../translate/context.js';

const CAPABILITIES: Capabilities = Object.freeze({ ...QUERY_CAPABILITIES, mutations: true, returning: true, upsert: 'if_matched', eventTriggers: true, subscriptions: true });

export const admin: AdminFace = {
  kind: 'mssql',
  capabilities: CAPABILITIES,
  profile: { defaultSchema: 'dbo', triggerOnReplication: true },
  decodeConfiguration: mssqlSourceConfiguration,
  usesPreparedStatements: () => false,
  connectAdmin: (configuration) => new MssqlAdminConnection(configuration),
  eventStatements,
  dmlStatement: () => {
    throw notSupported('the data operations of /v2/query');
  },
  adminError: (e) => (isMssqlError(e) ? mssqlAdminError(e) : null),
};
