/**
 * SQL Server as a `Backend` (driver `tedious`): configuration with a connection string,
 * introspection into the neutral catalog, queries as one T-SQL statement per root field
 * (FOR JSON PATH). Mutations, subscriptions, aggregates' distinct_on, tracked functions and
 * event triggers are not written yet: capabilities say so, and what the IR asks beyond them
 * answers `not-supported` naming the backend.
 */
import { QUERY_CAPABILITIES, type Backend } from '../backend.js';
import { mssqlSourceConfiguration } from './configuration.js';
import { MssqlAdminConnection, MssqlSourceConnection } from './connection.js';
import { dataError, isMssqlError, mssqlAdminError } from './errors.js';
import { notSupported } from './translate/context.js';
import { translateRootField } from './translate/select.js';

export const mssql: Backend = {
  kind: 'mssql',
  capabilities: QUERY_CAPABILITIES,
  decodeConfiguration: mssqlSourceConfiguration,
  usesPreparedStatements: () => false,
  translateRootField,
  translateMutation: () => {
    throw notSupported('mutations');
  },
  connect: (configuration, limits) => new MssqlSourceConnection(configuration, limits),
  connectAdmin: (configuration) => new MssqlAdminConnection(configuration),
  dmlStatement: () => {
    throw notSupported('the data operations of /v2/query');
  },
  dataError,
  isCheckViolation: () => false,
  adminError: (e) => (isMssqlError(e) ? mssqlAdminError(e) : null),
};
