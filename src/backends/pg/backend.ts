/** PostgreSQL (and Citus, a flavour of it) as a `Backend`. */
import { ALL_CAPABILITIES, type Backend } from '../backend.js';
import { PgAdminConnection } from './admin.js';
import { listenChanges } from './change-capture.js';
import { connectionInfo, pgSourceConfiguration, resolveDatabaseUrl } from './connection.js';
import { dataError, isCheckViolation } from './data-errors.js';
import { dmlStatement } from './dml/statement.js';
import { PgSourceConnection } from './execute.js';
import { eventStatements, PgEventStore } from './event-log.js';
import { isPgError, postgresError } from './run-sql.js';
import { translateMutation } from './translate/mutation.js';
import { translateLiveField } from './translate/multiplexed.js';
import { translateRootField } from './translate/select.js';

export const postgres: Backend = {
  kind: 'postgres',
  capabilities: ALL_CAPABILITIES,
  decodeConfiguration: pgSourceConfiguration,
  usesPreparedStatements: (configuration) => connectionInfo(configuration).use_prepared_statements,
  translateRootField,
  translateLiveField,
  translateMutation,
  connect: (configuration, limits) => new PgSourceConnection(configuration, limits),
  connectAdmin: (configuration) => new PgAdminConnection(configuration),
  listenChanges: (configuration, handlers) => listenChanges(resolveDatabaseUrl(configuration), handlers),
  connectEvents: (configuration, maxConnections) => new PgEventStore(configuration, maxConnections),
  eventStatements,
  dmlStatement,
  dataError,
  isCheckViolation,
  adminError: (e) => (isPgError(e) ? postgresError(e, '') : null),
};
