/** PostgreSQL's runtime face: the pools that run statements, change capture, database errors as answers. */
import type { Runtime } from '../../faces/runtime.js';
import { listenChanges } from '../change-capture.js';
import { resolveDatabaseUrl } from '../connection.js';
import { dataError, isCheckViolation } from '../data-errors.js';
import { PgSourceConnection } from '../execute.js';

export const runtime: Runtime = {
  kind: 'postgres',
  connect: (configuration, limits, meter) => new PgSourceConnection(configuration, limits, meter),
  listenChanges: (configuration, handlers) => listenChanges(resolveDatabaseUrl(configuration), handlers),
  dataError,
  isCheckViolation,
};
