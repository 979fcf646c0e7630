/** PostgreSQL's admin face: configuration, capabilities, the admin connection (introspection, run_sql), DML, event statements, errors. */
import { ALL_CAPABILITIES, type AdminFace } from '../../faces/admin.js';
import { PgAdminConnection } from '../admin.js';
import { connectionInfo, pgSourceConfiguration } from '../connection.js';
import { dmlStatement } from '../dml/statement.js';
import { eventStatements } from '../event-log.js';
import { isPgError, postgresError } from '../run-sql.js';
import { dumpDatabase } from '../pg-dump.js';

export const admin: AdminFace = {
  kind: 'postgres',
  capabilities: ALL_CAPABILITIES,
  profile: { defaultSchema: 'public', triggerOnReplication: false },
  decodeConfiguration: pgSourceConfiguration,
  usesPreparedStatements: (configuration) => connectionInfo(configuration).use_prepared_statements,
  connectAdmin: (configuration) => new PgAdminConnection(configuration),
  dmlStatement,
  eventStatements,
  adminError: (e) => (isPgError(e) ? postgresError(e, '') : null),
  dumpDatabase,
};
