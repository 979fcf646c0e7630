/**
 * BigQuery as a `Backend` (driver `@google-cloud/bigquery`): read-only, as upstream: no
 * mutations, subscriptions or streaming (absent from the schema), no primary keys (no
 * `_by_pk`), relationships by manual configuration. Queries are GoogleSQL with named parameters;
 * `distinct_on` is written with `ROW_NUMBER()`.
 */
import { QUERY_CAPABILITIES, type Backend } from '../backend.js';
import { bigquerySourceConfiguration } from './configuration.js';
import { BigQueryAdminConnection, BigQuerySourceConnection } from './connection.js';
import { dataError } from './errors.js';
import { notSupported } from './translate/context.js';
import { translateRootField } from './translate/select.js';

export const bigquery: Backend = {
  kind: 'bigquery',
  // distinct_on as upstream's BigQuery backend has it: ROW_NUMBER() per group (translate/select.ts).
  capabilities: Object.freeze({ ...QUERY_CAPABILITIES, distinctOn: true }),
  decodeConfiguration: bigquerySourceConfiguration,
  usesPreparedStatements: () => false,
  translateRootField,
  translateMutation: () => {
    throw notSupported('mutations');
  },
  connect: (configuration) => new BigQuerySourceConnection(configuration),
  connectAdmin: (configuration) => new BigQueryAdminConnection(configuration),
  dmlStatement: () => {
    throw notSupported('the data operations of /v2/query');
  },
  dataError,
  isCheckViolation: () => false,
  // Administration requests never run BigQuery statements (no run_sql): nothing to recognise.
  adminError: () => null,
};
