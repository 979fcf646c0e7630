/** SQL Server's runtime face: the tedious pools that run statements, database errors as answers. */
import type { Runtime } from '../../faces/runtime.js';
import { MssqlSourceConnection } from '../connection.js';
import { dataError, isCheckViolation } from '../errors.js';

export const runtime: Runtime = { kind: 'mssql', connect: (configuration, limits) => new MssqlSourceConnection(configuration, limits), dataError, isCheckViolation };
