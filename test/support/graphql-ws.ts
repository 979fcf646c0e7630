/** Subscriptions through the `graphql-ws` client library (graphql-transport-ws), and the engine's log lines. */
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import type { Engine } from './engine.js';

/** A `graphql-ws` client of the engine with these session headers, kept in `clients` (to dispose after each test). */
export function connect(engine: Engine, clients: Client[], headers: Record<string, string> = {}): Client {
  const c = createClient({ url: engine.url.replace('http', 'ws') + '/v1/graphql', webSocketImpl: WebSocket, connectionParams: { headers }, retryAttempts: 0 });
  clients.push(c);
  return c;
}

export interface Results {
  /** The next result (`{data}` or `{errors}`), or a rejection after `timeoutMs`. */
  next(timeoutMs?: number): Promise<any>;
  stop(): void;
}

export function subscribe(client: Client, query: string, variables?: Record<string, unknown>): Results {
  const queue: any[] = [];
  const waiters: ((v: any) => void)[] = [];
  const push = (v: any) => (waiters.length ? waiters.shift()!(v) : queue.push(v));
  const stop = client.subscribe({ query, variables }, { next: push, error: (e) => push({ failed: e }), complete: () => {} });
  return {
    next: (timeoutMs = 5000) =>
      queue.length
        ? Promise.resolve(queue.shift())
        : new Promise((resolve, reject) => {
            const timer = setTimeout(() => {
              waiters.splice(waiters.indexOf(done), 1);
              reject(new Error('no result'));
            }, timeoutMs);
            const done = (v: any) => {
              clearTimeout(timer);
              resolve(v);
            };
            waiters.push(done);
          }),
    stop,
  };
}

/** The details of the engine's log lines from `from` on with this message. */
export function logged(engine: Engine, message: string, from: number): any[] {
  return engine.logs
    .slice(from)
    .flatMap((line) => {
      try {
        return [JSON.parse(line)];
      } catch {
        return [];
      }
    })
    .filter((l) => l.detail?.message === message)
    .map((l) => l.detail);
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The cohort count of each multiplexed statement the engine runs during `intervals` refetch
 * intervals of `intervalMs` (its debug log: one `live query refetched` line per statement),
 * once the first results' refetches are logged (a log line may arrive after the result it
 * preceded, and a new subscriber's first refetch runs its cohort alone).
 */
export async function cohortsPerStatement(engine: Engine, intervalMs: number, intervals: number): Promise<number[]> {
  await sleep(2 * intervalMs);
  const from = engine.logs.length;
  await sleep(intervals * intervalMs);
  return logged(engine, 'live query refetched', from).map((l) => l.cohorts);
}

export interface LiveQueryCounts {
  queries: number;
  cohorts: number;
  subscribers: number;
}

/** The multiplexed queries, cohorts and subscribers running, summed over the multiplexer actors (`GET /dev/subscriptions`). */
export async function liveQueryCounts(engine: Engine): Promise<LiveQueryCounts> {
  const r = await fetch(`${engine.url}/dev/subscriptions`);
  if (!r.ok) throw new Error(`/dev/subscriptions answered ${r.status}`);
  const all = ((await r.json()) as { multiplexers: LiveQueryCounts[] }).multiplexers;
  return all.reduce((a, c) => ({ queries: a.queries + c.queries, cohorts: a.cohorts + c.cohorts, subscribers: a.subscribers + c.subscribers }), { queries: 0, cohorts: 0, subscribers: 0 });
}
