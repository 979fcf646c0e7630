/** The rate limits' windows in a real Redis: requests of one turn of the event loop go in one script call, counted in order. */
import { afterAll, expect, it } from 'vitest';
import { inject } from 'vitest';
import { openRedis } from '../../src/redis/connection.js';
import { RedisSlidingWindows } from '../../src/redis/sliding-window.js';
import { sharedRedisUrl } from '../support/redis.js';

const connection = openRedis({ url: sharedRedisUrl(inject('redisUrl')), tls: undefined, connectTimeoutMs: 2_000 }, 'test');
const windows = new RedisSlidingWindows(connection, 60_000);
afterAll(() => windows.close());

it('counts the requests of one turn in the order they came, per key, in one call', async () => {
  for (let i = 0; i < 100 && !windows.reachable; i++) await new Promise((r) => setTimeout(r, 20));
  const key = `test-${Date.now()}`;
  let calls = 0;
  const sent = connection.client.sendCommand.bind(connection.client);
  connection.client.sendCommand = ((command: unknown, stream?: unknown) => {
    calls++;
    return sent(command as never, stream as never);
  }) as typeof connection.client.sendCommand;
  const decisions = await Promise.all([...Array.from({ length: 8 }, () => windows.take(key, 5)), windows.take(`${key}-other`, 1)]);
  expect(calls).toBe(1);
  expect(decisions.slice(0, 8).map((d) => [d.allowed, d.count])).toEqual([
    [true, 1], [true, 2], [true, 3], [true, 4], [true, 5], [false, 5], [false, 5], [false, 5],
  ]);
  expect(decisions[8]).toMatchObject({ allowed: true, count: 1 });
  expect(decisions[0]!.resetMs).toBeGreaterThan(59_000);
});
