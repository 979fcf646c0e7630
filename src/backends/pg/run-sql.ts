/** `run_sql`: raw SQL on a source, answered in the well-known engine's row format. */
import type pg from 'pg';
import { ApiError } from '../../errors/admin.js';
import type { Json } from '../../util/decode.js';
import type { RunSqlResponse } from '../faces/admin.js';

// Every value comes back as PostgreSQL's text, exactly as the well-known engine returns it.
const textTypes = { getTypeParser: () => (v: string) => v } as unknown as pg.CustomTypesConfig;

export async function runSql(client: pg.ClientBase, sql: string): Promise<RunSqlResponse> {
  let results: pg.QueryResult | pg.QueryResult[];
  try {
    results = (await client.query({ text: sql, types: textTypes, rowMode: 'array' })) as pg.QueryResult | pg.QueryResult[];
  } catch (e) {
    throw postgresError(e, sql);
  }
  const last = Array.isArray(results) ? results[results.length - 1] : results;
  if (!last || last.fields.length === 0) return { result_type: 'CommandOk', result: null };
  const names = last.fields.map((f) => f.name);
  return { result_type: 'TuplesOk', result: [names, ...(last.rows as (string | null)[][])] };
}

export function isPgError(e: unknown): e is pg.DatabaseError {
  return typeof e === 'object' && e !== null && 'severity' in e && 'code' in e;
}

/** A database error as the admin API reports it: 400 `postgres-error` with the details in `internal`. */
export function postgresError(e: unknown, statement: string, path = '$.args'): ApiError {
  if (!isPgError(e)) {
    return new ApiError(400, 'postgres-error', `query execution failed: ${e instanceof Error ? e.message : String(e)}`, path);
  }
  const internal: Json = {
    statement,
    prepared: false,
    error: {
      exec_status: 'FatalError',
      hint: e.hint ?? null,
      message: e.message,
      status_code: e.code ?? null,
      description: e.detail ?? null,
    },
    arguments: [],
  };
  return new ApiError(400, 'postgres-error', 'query execution failed', path, internal);
}
