/**
 * `/healthz/sources` (the well-known engine's source health report): each source's status, as
 * `{status, error, timestamp}`. A source whose catalog could not be read is `ERROR` with the
 * reason; a connected one opens (and rolls back) a read-only transaction, `TIMEOUT` past the
 * limit. Each result that is not OK, and each return to OK, is a `health-check-log` line.
 */
import type { Metadata } from '../../metadata/types.js';
import type { SourceHealth } from '../../protocol/messages.js';
import { writeLog } from '../../log.js';
import type { SourceManager } from './sources.js';

const TIMEOUT_MS = 5_000;

async function check(sources: SourceManager, m: Metadata, name: string): Promise<Omit<SourceHealth, 'timestamp'>> {
  const error = sources.catalogs().get(name)?.error;
  const connection = sources.connection(name);
  if (!connection || error) return { status: 'ERROR', error: { message: error ?? 'source is not connected' } };
  const configuration = m.sources.find((s) => s.name === name)!.configuration;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), TIMEOUT_MS)));
  try {
    const ran = connection.begin(configuration, true).then((tx) => tx.rollback());
    ran.catch(() => {});
    if ((await Promise.race([ran, late])) === 'late') return { status: 'TIMEOUT', error: null };
    return { status: 'OK', error: null };
  } catch (e) {
    return { status: 'ERROR', error: { message: 'connection error', extra: e instanceof Error ? e.message : String(e) } };
  } finally {
    clearTimeout(timer);
  }
}

/** The last status of each source, to log a return to OK once. */
const last = new Map<string, SourceHealth['status']>();

export async function sourcesHealth(sources: SourceManager, m: Metadata): Promise<Record<string, SourceHealth>> {
  const entries = await Promise.all(
    m.sources.map(async (s): Promise<[string, SourceHealth]> => {
      const r = await check(sources, m, s.name);
      const timestamp = new Date().toISOString();
      if (r.status !== 'OK' || (last.get(s.name) ?? 'OK') !== 'OK') {
        writeLog('health-check-log', r.status === 'OK' ? 'info' : 'warn', { source_name: s.name, status: r.status, timestamp, error: r.error });
      }
      last.set(s.name, r.status);
      return [s.name, { ...r, timestamp }];
    }),
  );
  return Object.fromEntries(entries);
}
