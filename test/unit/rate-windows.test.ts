/** The sliding one-minute window of the rate limits on one node (`LocalWindows`), with explicit times. */
import { afterAll, describe, expect, it } from 'vitest';
import { LocalWindows, RATE_WINDOW_MS } from '../../src/graphql/rate-windows.js';

describe('LocalWindows', () => {
  const windows = new LocalWindows();
  afterAll(() => windows.close());

  it('lets `max` requests through in any minute, and a slot frees when the oldest leaves the window', () => {
    const t0 = 1_000_000;
    expect(windows.take('a', 2, t0)).toEqual({ allowed: true, count: 1, resetMs: RATE_WINDOW_MS });
    expect(windows.take('a', 2, t0 + 10_000)).toEqual({ allowed: true, count: 2, resetMs: 50_000 });
    // Refused requests are not counted: the window still frees at t0 + 1 min.
    expect(windows.take('a', 2, t0 + 30_000)).toEqual({ allowed: false, count: 2, resetMs: 30_000 });
    expect(windows.take('a', 2, t0 + RATE_WINDOW_MS - 1).allowed).toBe(false);
    expect(windows.take('a', 2, t0 + RATE_WINDOW_MS)).toEqual({ allowed: true, count: 2, resetMs: 10_000 });
    expect(windows.take('a', 2, t0 + RATE_WINDOW_MS + 1).allowed).toBe(false);
  });

  it('keeps one window per key', () => {
    expect(windows.take('b', 1, 0).allowed).toBe(true);
    expect(windows.take('b', 1, 1).allowed).toBe(false);
    expect(windows.take('c', 1, 1).allowed).toBe(true);
  });

  it('counts a long window of many requests exactly', () => {
    let through = 0;
    // 1,000 requests a second for two minutes against 5,000 a minute.
    for (let ms = 0; ms < 2 * RATE_WINDOW_MS; ms++) if (windows.take('d', 5_000, 10_000_000 + ms).allowed) through++;
    expect(through).toBe(10_000);
  });
});
