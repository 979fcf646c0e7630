/** Time limits' deadlines: one queue per limit, a request failed at its deadline and its statements told, an answered one let go. */
import { afterAll, describe, expect, it } from 'vitest';
import { Deadlines } from '../../src/execute/deadlines.js';

const never = new Promise<string>(() => {});
const after = (ms: number, v: string) => new Promise<string>((r) => setTimeout(() => r(v), ms));

describe('Deadlines', () => {
  const deadlines = new Deadlines();
  afterAll(() => deadlines.close());

  it('fails a request still running at its deadline, and calls what watches it', async () => {
    const started = performance.now();
    const d = deadlines.start(0.05, started);
    let cancelled = 0;
    const unwatch = d.onExpiry(() => cancelled++);
    await expect(d.bound(never)).rejects.toMatchObject({ code: 'time-limit-exceeded', message: 'time limit of 0.05 seconds exceeded' });
    // The cancelled statement ends after the deadline: it stops watching a deadline that has no watchers left.
    expect(() => unwatch()).not.toThrow();
    expect(performance.now() - started).toBeGreaterThanOrEqual(49);
    expect(performance.now() - started).toBeLessThan(200);
    expect(cancelled).toBe(1);
    expect(d.expired).toBe(true);
    // A statement starting later is cancelled at once.
    d.onExpiry(() => cancelled++);
    expect(cancelled).toBe(2);
  });

  it('lets an answer in time through, and stops watching for it', async () => {
    const d = deadlines.start(0.2, performance.now());
    let cancelled = 0;
    const unwatch = d.onExpiry(() => cancelled++);
    await expect(d.bound(after(10, 'ok'))).resolves.toBe('ok');
    unwatch();
    await after(300, '');
    expect(cancelled).toBe(0);
    expect(d.expired).toBe(false);
  });

  it('keeps each limit on its own: a short limit started after a long one expires first', async () => {
    const now = performance.now();
    const long = deadlines.start(0.5, now);
    const short = deadlines.start(0.05, now + 1);
    const order: string[] = [];
    const settle = (name: string, p: Promise<string>) => p.catch(() => order.push(name));
    await Promise.all([settle('long', long.bound(never)), settle('short', short.bound(never))]);
    expect(order).toEqual(['short', 'long']);
  });

  it('a failure before the deadline is the failure itself', async () => {
    const d = deadlines.start(1, performance.now());
    await expect(d.bound(Promise.reject(new Error('database said no')))).rejects.toThrow('database said no');
  });
});
