/**
 * `POST /v1alpha1/pg_dump` (the `pgdump` API), as the well-known engine serves it: `{opts,
 * clean_output, source}` runs the `pg_dump` program with `opts` against the source's database
 * and answers its output as text (the command-line tool's `migrate create --from-server` and
 * `seed create --from-table`), through the source's backend (`AdminFace.dumpDatabase`: PostgreSQL
 * and Citus). Only options choosing what is dumped are taken (`pg-dump-options.ts`).
 */
import { backendFor } from '../../backends/registry.js';
import { ApiError, badRequest, parseFailed } from '../../errors/admin.js';
import { findSource } from '../../metadata/lookup.js';
import type { Metadata } from '../../metadata/types.js';
import type { PgDumpResponse } from '../../protocol/messages.js';
import { arrayOf, bool, ObjectReader, str } from '../../util/decode.js';
import { checkPgDumpOptions } from './pg-dump-options.js';

/**
 * What `clean_output` leaves out, as the well-known engine cleans it: comments, session settings
 * and blank runs; and psql's meta-commands (`\restrict` of recent pg_dump releases), which
 * `run_sql` could not run.
 */
function clean(text: string): string {
  const kept = text.split('\n').filter((l) => !l.startsWith('--') && !l.startsWith('\\') && !/^SET \w+ = /.test(l) && !l.startsWith('SELECT pg_catalog.set_config('));
  return `${kept.join('\n').replace(/\n{3,}/g, '\n\n').trim()}\n`;
}

const errorReply = (e: ApiError): PgDumpResponse => ({ status: e.status, body: JSON.stringify(e.body()), contentType: 'application/json' });

export async function pgDump(metadata: Metadata, text: string): Promise<PgDumpResponse> {
  try {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      throw parseFailed(`invalid JSON in request body: ${(e as Error).message}`, '$');
    }
    const r = ObjectReader.of(parsed, '$');
    const opts = r.withDefault('opts', arrayOf(str), []);
    const cleanOutput = r.withDefault('clean_output', bool, false);
    const sourceName = r.withDefault('source', str, 'default');
    r.done();
    checkPgDumpOptions(opts);
    const source = findSource(metadata, sourceName, '$.source');
    const dump = backendFor(source.kind)?.dumpDatabase;
    if (!dump) throw badRequest('not-supported', `pg_dump works on PostgreSQL sources; "${sourceName}" is ${source.kind}`, '$.source');
    const out = await dump(source.configuration, opts);
    return { status: 200, body: cleanOutput ? clean(out) : out, contentType: 'text/plain; charset=utf-8' };
  } catch (e) {
    if (e instanceof ApiError) return errorReply(e);
    throw e;
  }
}
