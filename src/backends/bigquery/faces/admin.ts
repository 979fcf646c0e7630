/**
 * BigQuery's admin face, and what the backend is (driver `@google-cloud/bigquery`): read-only, as upstream: no
 * mutations, subscriptions or streaming (absent from the schema), no primary keys (no
 * `_by_pk`), relationships by manual configuration. Queries are GoogleSQL with named parameters;
 * `distinct_on` is written with `ROW_NUMBER()`.
 */
import { QUERY_CAPABILITIES, type AdminFace } from '../../faces/admin.js';
import { bigquerySourceConfiguration } from '../configuration.js';
import { BigQueryAdminConnection } from '../connection.js';
import { notSupported } from '../translate/context.js';

export const admin: AdminFace = {
  kind: 'bigquery',
  // distinct_on as upstream's BigQuery backend has it: ROW_NUMBER() per group (translate/select.ts).
  capabilities: Object.freeze({ ...QUERY_CAPABILITIES, distinctOn: true }),
  profile: { defaultSchema: '', triggerOnReplication: false },
  decodeConfiguration: bigquerySourceConfiguration,
  usesPreparedStatements: () => false,
  connectAdmin: (configuration) => new BigQueryAdminConnection(configuration),
  dmlStatement: () => {
    throw notSupported('the data operations of /v2/query');
  },
  // Administration requests never run BigQuery statements (no run_sql): nothing to recognise.
  adminError: () => null,
};
