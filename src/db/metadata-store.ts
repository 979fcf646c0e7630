/**
 * The durable metadata in `service_catalog`: the document's skeleton and `resource_version`
 * in one row, and a row per table entry (`metadata_tables`), so that a change writes only the
 * entries it touched (document-parts.ts). A document written whole into `metadata.metadata`
 * (by hand, or by an engine before this layout) is read as it is and split on the next
 * change. Every change happens under the version row's lock, so several engine instances
 * sharing the database serialise their writes; the others notice a new version by polling
 * (works behind transaction-mode poolers) and, as an accelerator, by LISTEN/NOTIFY.
 */
import pg from 'pg';
import { SCHEDULED_SCHEMA } from './scheduled-events.js';
import { ACTION_LOG_SCHEMA } from './action-log.js';
import { diffDocuments, parseTableEntry, tableEntryKey, tableEntryText, type DocumentDiff } from '../metadata/document-parts.js';
import type { Metadata, SourceMetadata, TableMetadata } from '../metadata/types.js';
import type { PgListener } from './listener.js';
import { metadataListener } from './metadata-listener.js';
import { bumpGenerations, decodeGenerations, encodeGenerations, NO_GENERATIONS, rereadNothing, sameGenerations, type CatalogGenerations, type Rereads } from './catalog-generations.js';
import { INSTALL_LOCK } from './install-lock.js';
import { CATALOG_STATE_SCHEMA } from './catalog-state.js';

export interface StoredMetadata {
  metadata: Metadata;
  version: number;
  /** The store holds exactly this document as skeleton and entry rows: the next write may write only what changed. */
  inRows: boolean;
  /** Which catalogs the changes up to this state re-read (catalog-generations.ts); they move without `version`. */
  catalogs: CatalogGenerations;
}

const CHANNEL = 'service_catalog_metadata';

const SCHEMA_SQL = `
CREATE SCHEMA IF NOT EXISTS service_catalog;
CREATE TABLE IF NOT EXISTS service_catalog.metadata (
  id integer PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  metadata json,
  skeleton json,
  resource_version bigint NOT NULL
);
ALTER TABLE service_catalog.metadata ADD COLUMN IF NOT EXISTS catalog_generations json;
-- "entry" is the JSON text the engine wrote, stored as it is: text, not json (the server
-- would parse 40 MiB again at 5,000 tables). It is the entry, or [entry, shared bodies] when
-- several roles have the same permission body (written once: document-parts.ts tableEntryText). Compressed with lz4 where the server has it
-- (PostgreSQL 14 on, built with it): fast, and an entry shrinks enough to stay in its row.
-- Else uncompressed: pglz on every write cost more than the disk it saved (replace_metadata's
-- write 2.5 s -> 1.6 s on a loaded machine).
CREATE TABLE IF NOT EXISTS service_catalog.metadata_tables (
  source text NOT NULL,
  key text NOT NULL,
  position integer NOT NULL,
  entry text NOT NULL,
  PRIMARY KEY (source, key)
);
DO $$ BEGIN
  -- A store created before the entries had rows of their own.
  IF NOT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = 'service_catalog' AND table_name = 'metadata' AND column_name = 'skeleton') THEN
    ALTER TABLE service_catalog.metadata ALTER COLUMN metadata DROP NOT NULL, ADD COLUMN skeleton json;
  END IF;
  -- A store whose entries were json.
  IF EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = 'service_catalog.metadata_tables'::regclass AND attname = 'entry' AND atttypid = 'json'::regtype) THEN
    ALTER TABLE service_catalog.metadata_tables ALTER COLUMN entry TYPE text;
  END IF;
  -- (Statements are planned when first run: attcompression is read only where it exists.)
  IF EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) THEN
    IF NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = 'service_catalog.metadata_tables'::regclass AND attname = 'entry' AND attstorage = 'x' AND attcompression = 'l') THEN
      ALTER TABLE service_catalog.metadata_tables ALTER COLUMN entry SET STORAGE EXTENDED, ALTER COLUMN entry SET COMPRESSION lz4;
    END IF;
  ELSIF EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = 'service_catalog.metadata_tables'::regclass AND attname = 'entry' AND attstorage <> 'e') THEN
    ALTER TABLE service_catalog.metadata_tables ALTER COLUMN entry SET STORAGE EXTERNAL;
  END IF;
END $$;`;

interface HeadRow {
  resource_version: string;
  catalog_generations: unknown;
}

interface VersionRow extends HeadRow {
  metadata: Metadata | null;
  skeleton: Metadata | null;
}

const READ_HEAD = 'SELECT resource_version, catalog_generations FROM service_catalog.metadata WHERE id = 1';
const READ_VERSION_ROW = 'SELECT metadata, skeleton, resource_version, catalog_generations FROM service_catalog.metadata WHERE id = 1';

/**
 * Entries per INSERT (about 1.3 MiB of text at 5,000 tables with 11 roles). The driver builds each
 * message in a buffer it grows by copying into fresh memory: 5,000 entries bound as messages of
 * 2,000 cost 150-500 ms of the actor, as messages of 200 about 20 ms.
 */
const ENTRIES_PER_INSERT = 200;

/**
 * One INSERT of entries (appended after the source's last position; an entry already stored
 * keeps its place), each entry's stored text its own parameter: the server reads each once.
 * One JSON array of them all made the server parse 33 MiB several times at 5,000 tables
 * (1.2-1.6 s against 0.6-0.8 s).
 */
function insertEntries(source: string, entries: readonly TableMetadata[]): { text: string; values: string[] } {
  const values = [source];
  const rows = entries.map((t, i) => {
    values.push(tableEntryKey(t), tableEntryText(t));
    return `($${values.length - 1}, ${i}, $${values.length})`;
  });
  const text = `
INSERT INTO service_catalog.metadata_tables (source, key, position, entry)
SELECT $1, x.key, base.p + 1 + x.n, x.entry
FROM (VALUES ${rows.join(',')}) AS x(key, n, entry),
     (SELECT coalesce(max(position), -1) AS p FROM service_catalog.metadata_tables WHERE source = $1) AS base
ON CONFLICT (source, key) DO UPDATE SET entry = EXCLUDED.entry`;
  return { text, values };
}

export class MetadataStore {
  private listener: PgListener | null = null;

  constructor(private readonly pool: pg.Pool) {}

  /** Creates the catalog on first boot (under an advisory lock: instances may boot together). */
  init(initial: () => Metadata): Promise<StoredMetadata> {
    return this.transaction('BEGIN', async (c) => {
      await c.query(INSTALL_LOCK);
      await c.query(SCHEMA_SQL);
      await c.query(SCHEDULED_SCHEMA);
      await c.query(ACTION_LOG_SCHEMA);
      await c.query(CATALOG_STATE_SCHEMA);
      const r = await c.query<VersionRow>(READ_VERSION_ROW);
      if (r.rows[0]) return this.document(c, r.rows[0]);
      const stored = { metadata: initial(), version: 1, inRows: true, catalogs: NO_GENERATIONS };
      await c.query('INSERT INTO service_catalog.metadata (id, resource_version) VALUES (1, 1)');
      await this.write(c, diffDocuments(null, stored.metadata)!, stored, true);
      return stored;
    });
  }

  /** One statement on the metadata database (the scheduled events' operations). */
  async query(text: string, params: unknown[]): Promise<Record<string, unknown>[]> {
    return (await this.pool.query(text, params)).rows as Record<string, unknown>[];
  }

  async version(): Promise<number> {
    const r = await this.pool.query<{ v: string }>('SELECT resource_version AS v FROM service_catalog.metadata WHERE id = 1');
    return Number(r.rows[0]?.v ?? 0);
  }

  /** The stored state when it is not `known` any more, else null; the document is read only when its version moved. */
  changedSince(known: StoredMetadata): Promise<StoredMetadata | null> {
    return this.transaction('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', async (c) => {
      const head = (await c.query<HeadRow>(READ_HEAD)).rows[0];
      if (!head) throw new Error('service_catalog.metadata has no row');
      const current = await this.stateAt(c, head, known);
      return current === known ? null : current;
    });
  }

  /**
   * The state whose version row is `head`: `known` itself when nothing moved, `known`'s document
   * with the new catalog generations when only they moved (the document is large, and `known` is
   * never mutated), else the stored document read in the same transaction.
   */
  private async stateAt(c: pg.PoolClient, head: HeadRow, known: StoredMetadata): Promise<StoredMetadata> {
    const catalogs = decodeGenerations(head.catalog_generations);
    if (Number(head.resource_version) !== known.version) return this.document(c, (await c.query<VersionRow>(READ_VERSION_ROW)).rows[0]!);
    return sameGenerations(catalogs, known.catalogs) ? known : { ...known, catalogs };
  }

  /**
   * Runs `fn` holding the version row's lock, with the stored state as it is now (`known`
   * when nothing moved since). `fn` returns the new document (or null for no change), the
   * catalogs it re-read, and a value; a document that differs from the stored one is written
   * (what changed of it) with the next version before the commit, so a change is durable
   * before anyone is told about it. Catalogs re-read move their generations, without a new
   * version when the document is the same (a reload is no change a client's next write
   * conflicts with). `whileWriting` runs while the new state is written (its result is
   * returned as `prepared`); a failure of either rolls the change back.
   */
  locked<T, P>(
    known: StoredMetadata,
    fn: (current: StoredMetadata) => Promise<{ next: Metadata | null; reread: Rereads; result: T }>,
    whileWriting: (stored: StoredMetadata) => Promise<P>,
  ): Promise<{ stored: StoredMetadata; result: T; prepared: P | null }> {
    return this.transaction('BEGIN', async (c) => {
      const head = (await c.query<HeadRow>(`${READ_HEAD} FOR UPDATE`)).rows[0];
      if (!head) throw new Error('service_catalog.metadata has no row');
      const current = await this.stateAt(c, head, known);
      const { next, reread, result } = await fn(current);
      const diff = next && diffDocuments(current.inRows ? current.metadata : null, next);
      if (!diff && rereadNothing(reread)) return { stored: current, result, prepared: null };
      const metadata = diff ? next : current.metadata;
      const stored = { metadata, version: diff ? current.version + 1 : current.version, inRows: diff ? true : current.inRows, catalogs: bumpGenerations(current.catalogs, reread, metadata) };
      // Both settle before anything else runs on the connection (the rollback of a failure).
      const [written, prepared] = await Promise.allSettled([this.write(c, diff, stored, !current.inRows), whileWriting(stored)]);
      if (written.status === 'rejected') throw written.reason;
      if (prepared.status === 'rejected') throw prepared.reason;
      await c.query(`SELECT pg_notify('${CHANNEL}', $1)`, [String(stored.version)]);
      return { stored, result, prepared: prepared.value };
    });
  }

  private async transaction<T>(begin: string, fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    const c = await this.pool.connect();
    try {
      await c.query(begin);
      const result = await fn(c);
      await c.query('COMMIT');
      return result;
    } catch (e) {
      await c.query('ROLLBACK').catch(() => {});
      throw e;
    } finally {
      c.release();
    }
  }

  /** The whole document of a version row: written whole, or as skeleton and entry rows. */
  private async document(c: pg.PoolClient, row: VersionRow): Promise<StoredMetadata> {
    const version = Number(row.resource_version);
    const catalogs = decodeGenerations(row.catalog_generations);
    if (row.metadata) return { metadata: row.metadata, version, inRows: false, catalogs };
    const skeleton = row.skeleton ?? { version: 3, sources: [] };
    const r = await c.query<{ source: string; entry: string }>('SELECT source, entry FROM service_catalog.metadata_tables ORDER BY source, position');
    const tables = new Map<string, TableMetadata[]>();
    for (const { source, entry } of r.rows) {
      let list = tables.get(source);
      if (!list) tables.set(source, (list = []));
      list.push(parseTableEntry(entry));
    }
    const sources = skeleton.sources.map((s: SourceMetadata) => ({ ...s, tables: tables.get(s.name) ?? [] }));
    return { metadata: { ...skeleton, sources }, version, inRows: true, catalogs };
  }

  /**
   * Writes what `diff` says changed (nothing of the document when null) and `stored`'s version
   * and generations; `whole` (a diff from nothing: the rows may hold another document) replaces
   * every row. Each batch of entries is made while the server writes the
   * one before (at 5,000 tables each side takes about half a second; they ran one after the
   * other), and the caller's `whileWriting` work runs in the same turns (`locked`).
   */
  private async write(c: pg.PoolClient, diff: DocumentDiff | null, stored: StoredMetadata, whole: boolean): Promise<void> {
    // One statement at a time on the connection (the driver's queue of several is deprecated).
    let running: Promise<unknown> | null = null;
    const send = async (text: string, values: unknown[]) => {
      if (running) await running;
      running = c.query(text, values);
    };
    const generations = encodeGenerations(stored.catalogs);
    // Only catalogs were re-read: the document and its version stay.
    if (!diff) return void (await c.query('UPDATE service_catalog.metadata SET catalog_generations = $1 WHERE id = 1', [generations]));
    if (whole) await send('DELETE FROM service_catalog.metadata_tables', []);
    await send('UPDATE service_catalog.metadata SET metadata = NULL, skeleton = coalesce($1::json, skeleton), resource_version = $2, catalog_generations = $3 WHERE id = 1', [
      diff.skeleton,
      stored.version,
      generations,
    ]);
    for (const t of diff.tables) {
      if (t.kind !== 'some' && !whole) await send('DELETE FROM service_catalog.metadata_tables WHERE source = $1', [t.source]);
      if (t.kind === 'some' && t.deletes.length > 0) await send('DELETE FROM service_catalog.metadata_tables WHERE source = $1 AND key = ANY($2)', [t.source, t.deletes]);
      const entries = t.kind === 'all' ? t.entries : t.kind === 'some' ? t.upserts : [];
      for (let from = 0; from < entries.length; from += ENTRIES_PER_INSERT) {
        const { text, values } = insertEntries(t.source, entries.slice(from, from + ENTRIES_PER_INSERT));
        await send(text, values);
      }
    }
    await running;
  }

  /** An accelerator, kept connected (listener.ts); polling still keeps instances in sync where LISTEN does not work. */
  async listen(onChange: () => void): Promise<void> {
    this.listener = metadataListener(this.pool.options, CHANNEL, onChange);
    await this.listener.start();
  }

  async close(): Promise<void> {
    await this.listener?.close();
    await this.pool.end();
  }
}
