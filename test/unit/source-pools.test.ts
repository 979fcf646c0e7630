import { describe, expect, it } from 'vitest';
import { SnapshotBus } from '../../src/actors/snapshot-bus.js';
import { SourcePools } from '../../src/execute/source-pools.js';
import type { PublishedSnapshot } from '../../src/protocol/snapshot.js';
import type { PgSourceConnection } from '../../src/backends/pg/execute.js';
import { loadEveryBackend } from '../../src/backends/registry.js';

// The backends a thread uses are loaded first (backends/registry.ts).
await loadEveryBackend();

const snapshot = (generation: number, configuration: Record<string, unknown>): PublishedSnapshot => ({
  version: generation,
  generation,
  base: null,
  changes: { everything: true, sources: [], tables: [] },
  connected: [{ name: 'default', kind: 'postgres', configuration: configuration as PublishedSnapshot['connected'][number]['configuration'] }],
  restEndpoints: [], tlsAllowlist: [], remoteSchemas: [], eventTriggers: [], cronTriggers: [], asyncActions: [], opentelemetry: null,
  update: new Uint8Array(new SharedArrayBuffer(0)),
});

// Pools connect lazily: nothing here reaches a server.
const url = (port: number) => ({ connection_info: { database_url: `postgres://nobody@127.0.0.1:${port}/nothing` } });

describe('SourcePools', () => {
  it('keeps a source pool while its settings are the same in any key order, and replaces it when they change', async () => {
    const bus = new SnapshotBus();
    const pools = new SourcePools(bus);
    bus.publish(snapshot(1, { connection_info: { database_url: 'postgres://nobody@127.0.0.1:1/nothing', use_prepared_statements: true } }));
    const first = pools.get('default');
    expect(first).toBeDefined();
    bus.publish(snapshot(2, { connection_info: { use_prepared_statements: true, database_url: 'postgres://nobody@127.0.0.1:1/nothing' } }));
    expect(pools.get('default')).toBe(first);
    bus.publish(snapshot(3, url(2)));
    expect(pools.get('default')).not.toBe(first);
    await pools.close();
  });

  it('does not keep the closed pool when the one for new settings cannot be made', async () => {
    const bus = new SnapshotBus();
    const pools = new SourcePools(bus);
    bus.publish(snapshot(1, url(1)));
    expect(pools.get('default')).toBeDefined();
    bus.publish(snapshot(2, { connection_info: { database_url: { from_env: 'SERVICE_TEST_NO_SUCH_VARIABLE' } } }));
    expect(pools.get('default')).toBeUndefined();
    await pools.close();
  });

  it("opens pools with the multiplexer actors' limits instead of the source's pool settings", async () => {
    const bus = new SnapshotBus();
    const own = new SourcePools(bus);
    const limited = new SourcePools(bus, { maxConnections: 3, idleTimeoutSeconds: 7 });
    bus.publish(snapshot(1, { connection_info: { database_url: 'postgres://nobody@127.0.0.1:1/nothing', pool_settings: { max_connections: 20, idle_timeout: 60 } } }));
    const options = (p: SourcePools) => (p.get('default')!.connection as PgSourceConnection).pool.options;
    expect([options(own).max, options(own).idleTimeoutMillis]).toEqual([20, 60_000]);
    expect([options(limited).max, options(limited).idleTimeoutMillis]).toEqual([3, 7_000]);
    await Promise.all([own.close(), limited.close()]);
  });
});
