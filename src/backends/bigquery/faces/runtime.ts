/** BigQuery's runtime face: the client that runs statements, its errors as answers. */
import type { Runtime } from '../../faces/runtime.js';
import { BigQuerySourceConnection } from '../connection.js';
import { dataError } from '../errors.js';

export const runtime: Runtime = { kind: 'bigquery', connect: (configuration) => new BigQuerySourceConnection(configuration), dataError, isCheckViolation: () => false };
