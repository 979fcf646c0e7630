/** A store connection against a real Redis: commands fail at once while it is down, and it comes back by itself. */
import { afterAll, describe, expect, it } from 'vitest';
import { openRedis } from '../../src/redis/connection.js';
import { startRedis } from '../support/redis.js';

const until = async (condition: () => boolean, ms = 5_000) => {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('openRedis', async () => {
  const server = await startRedis();
  const store = openRedis({ url: server.url, tls: undefined, connectTimeoutMs: 1_000 }, 'test');
  afterAll(async () => {
    await store.close();
    await server.stop();
  });

  it('answers while Redis is up, fails fast while it is down, and reconnects', async () => {
    await until(() => store.reachable);
    expect(await store.client.set('k', 'v')).toBe('OK');
    await server.stop(true);
    await until(() => !store.reachable);
    const started = Date.now();
    await expect(store.client.get('k')).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(200);
    await server.restart();
    await until(() => store.reachable);
    expect(await store.client.set('k', 'w')).toBe('OK');
  });
});
