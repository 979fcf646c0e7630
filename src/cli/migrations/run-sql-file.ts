/**
 * One SQL file (a migration's direction, a seed) run on a source through `run_sql`: one request,
 * so one transaction on the engine, which leaves nothing of a file that fails. The failure names
 * the file and what the database said (its message, detail and hint).
 */
import { readFileSync } from 'node:fs';
import type { AdminError, EngineClient } from '../engine-client.js';
import { CliError } from '../errors.js';

interface RunSqlError extends AdminError {
  internal?: { error?: { message?: string; hint?: string | null; description?: string | null } };
}

function reason(e: CliError): string {
  const db = (e.detail as RunSqlError | undefined)?.internal?.error;
  if (!db?.message) return e.message;
  return [db.message, db.description, db.hint && `hint: ${db.hint}`].filter(Boolean).join('; ');
}

export async function runSqlFile(engine: EngineClient, source: string, file: string): Promise<void> {
  const sql = readFileSync(file, 'utf8');
  if (sql.trim() === '') return;
  try {
    await engine.query('run_sql', { source, sql });
  } catch (e) {
    if (!(e instanceof CliError) || e.detail === undefined) throw e;
    throw new CliError(`${file}: ${reason(e)}`, e.exitCode, e.detail);
  }
}
