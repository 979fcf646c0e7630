import { afterEach, describe, expect, it } from 'vitest';
import { Actor, ActorUnavailable } from '../../src/actors/runtime.js';

type Req = { type: 'echo'; value: number } | { type: 'slow'; value: number } | { type: 'crash' } | { type: 'hang' } | { type: 'fail' };
type Replies = { echo: { echo: number }; slow: { echo: number }; crash: never; hang: never; fail: never };

let actor: Actor<Req, Replies, never> | undefined;
const start = async (timeoutMs = 2000) => {
  actor = new Actor<Req, Replies, never>({ name: 'echo', script: new URL('./echo-worker.mjs', import.meta.url), workerData: null, timeoutMs, stopGraceMs: 500 });
  await actor.start();
  return actor;
};

afterEach(async () => {
  await actor?.stop();
});

describe('actor runtime', () => {
  it('answers requests by correlation id, in any order', async () => {
    const a = await start();
    const replies = await Promise.all([1, 2, 3].map((value) => a.request({ type: 'echo', value })));
    expect(replies).toEqual([{ echo: 1 }, { echo: 2 }, { echo: 3 }]);
  });

  it('turns a failing handler into an error for that request only', async () => {
    const a = await start();
    await expect(a.request({ type: 'fail' })).rejects.toThrow('handler failed');
    expect(await a.request({ type: 'echo', value: 4 })).toEqual({ echo: 4 });
  });

  it('times out a request that gets no answer', async () => {
    const a = await start(200);
    await expect(a.request({ type: 'hang' })).rejects.toBeInstanceOf(ActorUnavailable);
  });

  it('fails the requests in flight when the worker dies, then restarts it', async () => {
    const a = await start();
    const inFlight = a.request({ type: 'hang' });
    const crash = a.request({ type: 'crash' });
    await expect(inFlight).rejects.toBeInstanceOf(ActorUnavailable);
    await expect(crash).rejects.toBeInstanceOf(ActorUnavailable);
    // Restarted after a short back-off.
    let reply: unknown;
    for (let i = 0; i < 50 && reply === undefined; i++) {
      await new Promise((r) => setTimeout(r, 50));
      reply = await a.request({ type: 'echo', value: 5 }).catch(() => undefined);
    }
    expect(reply).toEqual({ echo: 5 });
  });

  it('answers the requests in flight when it stops, and fails one that hangs past the grace time', async () => {
    const a = await start();
    const slow = a.request({ type: 'slow', value: 6 });
    const hung = a.request({ type: 'hang' });
    const stopped = a.stop();
    expect(await slow).toEqual({ echo: 6 });
    await expect(hung).rejects.toThrow('engine is shutting down');
    await stopped;
  });
});
