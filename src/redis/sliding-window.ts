/**
 * The rate limits' sliding windows in Redis, shared by every engine that uses the same server:
 * one sorted set per key (`service:rate-limit:<role>[:<unique param value>...]`, URI-encoded),
 * each let-through request a member scored by its time in milliseconds. A Lua script expires
 * what left the window, counts, and adds the request when under the limit, atomically: two
 * engines never both take the last slot. The time is Redis's own (`TIME`), so the engines' clocks
 * need not agree. A key expires a minute after its last request.
 *
 * The requests that come in one turn of the event loop go in one call of the script, in order
 * (the same key twice counts twice): an ioredis command costs 12-18 µs of the front thread's CPU
 * (bench/RESULTS.md), one per request was most of what rate limits in Redis cost.
 */
import { randomBytes } from 'node:crypto';
import type { RedisConnection } from './connection.js';

const WINDOW_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
local out = {}
for i, key in ipairs(KEYS) do
  local max = tonumber(ARGV[2 * i])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  local count = redis.call('ZCARD', key)
  local allowed = 0
  if count < max then
    redis.call('ZADD', key, now, ARGV[2 * i + 1])
    redis.call('PEXPIRE', key, window)
    count = count + 1
    allowed = 1
  end
  local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  local reset = window
  if oldest[2] then reset = tonumber(oldest[2]) + window - now end
  out[#out + 1] = allowed
  out[#out + 1] = count
  out[#out + 1] = reset
end
return out
`;

export const RATE_LIMIT_KEY_PREFIX = 'service:rate-limit:';

type WindowCommand = (numberOfKeys: number, ...keysThenArgs: (string | number)[]) => Promise<number[]>;

interface Taking {
  key: string;
  max: number;
  resolve(d: { allowed: boolean; count: number; resetMs: number }): void;
  reject(e: unknown): void;
}

export class RedisSlidingWindows {
  /** Members must be unique across engines: this engine's id and a counter. */
  private readonly node = randomBytes(6).toString('hex');
  private seq = 0;
  private readonly run: WindowCommand;
  /** The requests of this turn of the event loop, sent together at its end. */
  private pending: Taking[] = [];

  constructor(
    private readonly connection: RedisConnection,
    private readonly windowMs: number,
  ) {
    // ioredis sends the script by its SHA (EVALSHA) and loads it again when the server lost it.
    connection.client.defineCommand('serviceRateWindows', { lua: WINDOW_SCRIPT });
    const client = connection.client as unknown as { serviceRateWindows: WindowCommand };
    this.run = (n, ...rest) => client.serviceRateWindows(n, ...rest);
  }

  get reachable(): boolean {
    return this.connection.reachable;
  }

  take(key: string, max: number): Promise<{ allowed: boolean; count: number; resetMs: number }> {
    return new Promise((resolve, reject) => {
      if (this.pending.length === 0) setImmediate(() => this.send());
      this.pending.push({ key: RATE_LIMIT_KEY_PREFIX + key, max, resolve, reject });
    });
  }

  private send(): void {
    const batch = this.pending;
    this.pending = [];
    const args: (string | number)[] = [this.windowMs];
    for (const t of batch) args.push(t.max, `${this.node}:${this.seq++}`);
    this.run(batch.length, ...batch.map((t) => t.key), ...args).then(
      (out) => batch.forEach((t, i) => t.resolve({ allowed: out[3 * i] === 1, count: out[3 * i + 1]!, resetMs: out[3 * i + 2]! })),
      (e: unknown) => batch.forEach((t) => t.reject(e)),
    );
  }

  close(): Promise<void> {
    return this.connection.close();
  }
}
