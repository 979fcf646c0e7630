/**
 * The rate limits' sliding windows in Redis, shared by every engine that uses the same server:
 * one sorted set per key (`service:rate-limit:<role>[:<unique param value>...]`, URI-encoded), each let-through request
 * a member scored by its time in milliseconds. One Lua script per request expires what left
 * the window, counts, and adds the request when under the limit, atomically: two engines never
 * both take the last slot. The time is Redis's own (`TIME`), so the engines' clocks need not
 * agree. A key expires a minute after its last request.
 */
import { randomBytes } from 'node:crypto';
import type { RedisConnection } from './connection.js';

const WINDOW_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local max = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
if count < max then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], window)
  count = count + 1
  allowed = 1
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local reset = window
if oldest[2] then reset = tonumber(oldest[2]) + window - now end
return {allowed, count, reset}
`;

export const RATE_LIMIT_KEY_PREFIX = 'service:rate-limit:';

type WindowCommand = (key: string, max: number, windowMs: number, member: string) => Promise<[number, number, number]>;

export class RedisSlidingWindows {
  /** Members must be unique across engines: this engine's id and a counter. */
  private readonly node = randomBytes(6).toString('hex');
  private seq = 0;
  private readonly run: WindowCommand;

  constructor(
    private readonly connection: RedisConnection,
    private readonly windowMs: number,
  ) {
    // ioredis sends the script by its SHA (EVALSHA) and loads it again when the server lost it.
    connection.client.defineCommand('serviceRateWindow', { numberOfKeys: 1, lua: WINDOW_SCRIPT });
    const client = connection.client as unknown as { serviceRateWindow: WindowCommand };
    this.run = (key, max, windowMs, member) => client.serviceRateWindow(key, max, windowMs, member);
  }

  get reachable(): boolean {
    return this.connection.reachable;
  }

  async take(key: string, max: number): Promise<{ allowed: boolean; count: number; resetMs: number }> {
    const [allowed, count, reset] = await this.run(RATE_LIMIT_KEY_PREFIX + key, max, this.windowMs, `${this.node}:${this.seq++}`);
    return { allowed: allowed === 1, count, resetMs: reset };
  }

  close(): Promise<void> {
    return this.connection.close();
  }
}
