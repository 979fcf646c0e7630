/**
 * The backend of each metadata source kind. `citus` is the `postgres` backend with
 * Citus' catalog read (composed here: backends never import each other); `mssql` is
 * SQL Server; `bigquery` is BigQuery (read-only).
 */
import type { ApiError } from '../protocol/errors.js';
import type { BackendKind } from '../metadata/types.js';
import type { Backend } from './backend.js';
import { bigquery } from './bigquery/backend.js';
import { citusOn } from './citus/backend.js';
import { mssql } from './mssql/backend.js';
import { postgres } from './pg/backend.js';

const BACKENDS: Partial<Record<BackendKind, Backend>> = { postgres, citus: citusOn(postgres), mssql, bigquery };

/** The backend of a source kind, or undefined when this engine has none for it. */
export function backendFor(kind: string): Backend | undefined {
  return Object.hasOwn(BACKENDS, kind) ? BACKENDS[kind as BackendKind] : undefined;
}

/** A database error of any backend met by an administration request, or null when `e` is none. */
export function adminError(e: unknown): ApiError | null {
  for (const backend of new Set(Object.values(BACKENDS))) {
    const error = backend.adminError(e);
    if (error) return error;
  }
  return null;
}
