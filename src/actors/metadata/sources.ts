/**
 * The metadata actor's connections to its sources: one pool per source, rebuilt when
 * the configuration changes, and the last catalog read from each. An unreachable
 * source is remembered with its error; it never stops the engine.
 */
import type { AdminConnection } from '../../backends/faces/admin.js';
import { backendFor } from '../../backends/registry.js';
import type { DatabaseCatalog } from '../../catalog/types.js';
import type { Metadata } from '../../metadata/types.js';
import type { SourceCatalog } from '../../metadata/resolve.js';
import { logger } from '../../log.js';
import { canonicalJson } from '../../util/canonical-json.js';

const log = logger('health-check-log');

interface Entry {
  configKey: string;
  connection: AdminConnection | null;
  catalog: SourceCatalog;
}

export class SourceManager {
  private readonly entries = new Map<string, Entry>();

  /** `removing`: what to do on a source's database before its connection to a removed source closes. */
  constructor(private readonly removing: (source: string, connection: AdminConnection, m: Metadata) => Promise<void>) {}

  /** Connects sources that are new or whose configuration changed; forgets removed ones. */
  async sync(m: Metadata, refresh: ReadonlySet<string> | true = new Set()): Promise<void> {
    const wanted = new Set(m.sources.map((s) => s.name));
    const removed: Promise<void>[] = [];
    for (const [name, e] of this.entries) {
      if (!wanted.has(name)) {
        this.entries.delete(name);
        const connection = e.connection;
        if (connection) removed.push(this.removing(name, connection, m).catch(() => {}).then(() => connection.close().catch(() => {})));
      }
    }
    await Promise.all(removed);
    await Promise.all(
      m.sources.map(async (s) => {
        // Key order does not matter: a replaced document's settings equal to the stored ones keep the connection and catalog.
        const configKey = canonicalJson([s.kind, s.configuration]);
        const e = this.entries.get(s.name);
        if (e && e.configKey === configKey) {
          // A source that could not even be connected (its settings) keeps the reason.
          if ((refresh === true || refresh.has(s.name)) && e.connection) e.catalog = await this.read(s.name, e.connection);
          return;
        }
        void e?.connection?.close().catch(() => {});
        let connection: AdminConnection | null = null;
        let catalog: SourceCatalog;
        const backend = backendFor(s.kind);
        if (!backend) {
          catalog = { introspection: null, error: `backend kind "${s.kind}" is not supported by this engine yet` };
        } else {
          try {
            connection = backend.connectAdmin(s.configuration);
            catalog = await this.read(s.name, connection);
          } catch (err) {
            catalog = { introspection: null, error: err instanceof Error ? err.message : String(err) };
          }
        }
        this.entries.set(s.name, { configKey, connection, catalog });
      }),
    );
  }

  private async read(name: string, connection: AdminConnection | null): Promise<SourceCatalog> {
    if (!connection) return { introspection: null, error: 'source is not connected' };
    try {
      return { introspection: await connection.introspect(), error: null };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      log.warn('source is unreachable', { source: name, error: message });
      return { introspection: null, error: `could not connect to source ${JSON.stringify(name)}: ${message}` };
    }
  }

  connection(name: string): AdminConnection | null {
    return this.entries.get(name)?.connection ?? null;
  }

  catalogs(): Map<string, SourceCatalog> {
    return new Map([...this.entries].map(([k, e]) => [k, e.catalog]));
  }

  /** Takes a catalog read inside a committed unit of work. */
  setIntrospection(name: string, introspection: DatabaseCatalog): void {
    const e = this.entries.get(name);
    if (e) e.catalog = { introspection, error: null };
  }

  async close(): Promise<void> {
    await Promise.all([...this.entries.values()].map((e) => e.connection?.close().catch(() => {})));
    this.entries.clear();
  }
}
