/**
 * The durable metadata: one row in `service_catalog.metadata` holding the document and
 * its `resource_version`. Every change happens under a row lock, so several engine
 * instances sharing the database serialise their writes; the others notice a new
 * version by polling (works behind transaction-mode poolers) and, as an accelerator,
 * by LISTEN/NOTIFY.
 */
import pg from 'pg';
import type { Metadata } from '../../metadata/types.js';
import { ChangeListener } from './listener.js';

export interface StoredMetadata {
  metadata: Metadata;
  version: number;
  /** The document's JSON text as stored, when known: comparing texts tells a real change from a no-op. */
  text?: string;
}

const CHANNEL = 'service_catalog_metadata';

const SCHEMA_SQL = `
CREATE SCHEMA IF NOT EXISTS service_catalog;
CREATE TABLE IF NOT EXISTS service_catalog.metadata (
  id integer PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  metadata json NOT NULL,
  resource_version bigint NOT NULL
);`;

export class MetadataStore {
  private listener: ChangeListener | null = null;

  constructor(private readonly pool: pg.Pool) {}

  /** Creates the catalog on first boot (under an advisory lock: instances may boot together). */
  async init(initial: () => Metadata): Promise<StoredMetadata> {
    const c = await this.pool.connect();
    try {
      await c.query('BEGIN');
      await c.query(`SELECT pg_advisory_xact_lock(hashtext('service_catalog'))`);
      await c.query(SCHEMA_SQL);
      const r = await c.query<{ metadata: Metadata; resource_version: string }>(
        'SELECT metadata, resource_version FROM service_catalog.metadata WHERE id = 1',
      );
      let stored: StoredMetadata;
      if (r.rows[0]) {
        stored = { metadata: r.rows[0].metadata, version: Number(r.rows[0].resource_version) };
      } else {
        stored = { metadata: initial(), version: 1 };
        await c.query('INSERT INTO service_catalog.metadata (id, metadata, resource_version) VALUES (1, $1, 1)', [
          JSON.stringify(stored.metadata),
        ]);
      }
      await c.query('COMMIT');
      return stored;
    } catch (e) {
      await c.query('ROLLBACK').catch(() => {});
      throw e;
    } finally {
      c.release();
    }
  }

  async version(): Promise<number> {
    const r = await this.pool.query<{ v: string }>('SELECT resource_version AS v FROM service_catalog.metadata WHERE id = 1');
    return Number(r.rows[0]?.v ?? 0);
  }

  async read(): Promise<StoredMetadata> {
    const r = await this.pool.query<{ metadata: Metadata; resource_version: string }>(
      'SELECT metadata, resource_version FROM service_catalog.metadata WHERE id = 1',
    );
    const row = r.rows[0];
    if (!row) throw new Error('service_catalog.metadata has no row');
    return { metadata: row.metadata, version: Number(row.resource_version) };
  }

  /**
   * Runs `fn` holding the metadata row lock, with the stored state as it is now
   * (`known` when its version is still the stored one).
   * `fn` returns the new document (or null for no change) and a value; a changed
   * document is written with the next version before the commit, so a change is
   * durable before anyone is told about it.
   */
  async locked<T>(
    known: StoredMetadata,
    fn: (current: StoredMetadata) => Promise<{ next: { metadata: Metadata; text: string } | null; result: T }>,
  ): Promise<{ stored: StoredMetadata; result: T }> {
    const c = await this.pool.connect();
    try {
      await c.query('BEGIN');
      const r = await c.query<{ resource_version: string }>('SELECT resource_version FROM service_catalog.metadata WHERE id = 1 FOR UPDATE');
      const row = r.rows[0];
      if (!row) throw new Error('service_catalog.metadata has no row');
      const version = Number(row.resource_version);
      // The document is read only when another instance changed it: it is large, and `known` is never mutated.
      const current = version === known.version ? known : { metadata: await this.readDocument(c), version };
      const { next, result } = await fn(current);
      let stored = current;
      if (next !== null) {
        stored = { metadata: next.metadata, version: current.version + 1, text: next.text };
        await c.query('UPDATE service_catalog.metadata SET metadata = $1, resource_version = $2 WHERE id = 1', [next.text, stored.version]);
        await c.query(`SELECT pg_notify('${CHANNEL}', $1)`, [String(stored.version)]);
      }
      await c.query('COMMIT');
      return { stored, result };
    } catch (e) {
      await c.query('ROLLBACK').catch(() => {});
      throw e;
    } finally {
      c.release();
    }
  }

  private async readDocument(c: pg.PoolClient): Promise<Metadata> {
    const r = await c.query<{ metadata: Metadata }>('SELECT metadata FROM service_catalog.metadata WHERE id = 1');
    return r.rows[0]!.metadata;
  }

  /** An accelerator, kept connected (listener.ts); polling still keeps instances in sync where LISTEN does not work. */
  async listen(onChange: () => void): Promise<void> {
    this.listener = new ChangeListener(this.pool.options, CHANNEL, onChange);
    await this.listener.start();
  }

  async close(): Promise<void> {
    await this.listener?.close();
    await this.pool.end();
  }
}
