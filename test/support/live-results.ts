/** A `graphql-ws` subscription's results as a queue, and the engine's log lines, for the subscription tests. */
import type { Client } from 'graphql-ws';
import type { Engine } from './engine.js';

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

/** The engine's log lines from `from` on with this message. */
export function loggedSince(engine: Engine, message: string, from: number): any[] {
  return engine.logs
    .slice(from)
    .flatMap((line) => {
      try {
        return [JSON.parse(line)];
      } catch {
        return [];
      }
    })
    .filter((l) => l.message === message);
}
