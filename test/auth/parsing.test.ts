/** The small parsers and structures of authentication: cache headers, HTTP dates, JSON paths, the expiring cache. */
import { describe, expect, it } from 'vitest';
import { ExpiringCache } from '../../src/auth/expiring-cache.js';
import { jwkSetExpiry, parseHttpDate, webhookExpiry } from '../../src/auth/expiry.js';
import { parseJsonPath, valueAt } from '../../src/util/json-path.js';

const NOW = Date.UTC(2024, 0, 1);

describe('parseHttpDate (%a, %d %b %Y %T GMT)', () => {
  it('reads the format of spec item 10', () => {
    expect(parseHttpDate('Mon, 30 Mar 2020 13:25:18 GMT')).toBe(Date.UTC(2020, 2, 30, 13, 25, 18));
  });

  it.each(['Tue, 30 Mar 2020 13:25:18 GMT', 'Mon, 31 Feb 2020 13:25:18 GMT', '2020-03-30T13:25:18Z', 'Mon, 30 Mar 2020 25:25:18 GMT', 'Mon, 30 Mar 2020 13:25:18 UTC'])(
    'refuses "%s"',
    (text) => {
      expect(parseHttpDate(text)).toBeUndefined();
    },
  );
});

describe('webhookExpiry', () => {
  it('prefers Cache-Control max-age, then Expires', () => {
    expect(webhookExpiry('max-age=600', 'Mon, 30 Mar 2020 13:25:18 GMT', NOW)).toBe(NOW + 600_000);
    expect(webhookExpiry('private, max-age="5"', undefined, NOW)).toBe(NOW + 5000);
    expect(webhookExpiry('no-cache', 'Mon, 30 Mar 2020 13:25:18 GMT', NOW)).toBe(Date.UTC(2020, 2, 30, 13, 25, 18));
    expect(webhookExpiry('max-age=-1', undefined, NOW)).toBeUndefined();
    expect(webhookExpiry(undefined, undefined, NOW)).toBeUndefined();
  });
});

describe('jwkSetExpiry', () => {
  it.each([
    ['max-age=60', undefined, NOW + 60_000],
    ['s-maxage=30', undefined, NOW + 30_000],
    ['must-revalidate, max-age=60', undefined, NOW + 60_000],
    ['must-revalidate', undefined, NOW],
    ['no-cache', undefined, NOW],
    ['no-store, max-age=60', undefined, NOW],
    ['public', 'Mon, 01 Jan 2024 00:10:00 GMT', NOW + 600_000],
    [undefined, 'Mon, 01 Jan 2024 00:10:00 GMT', NOW + 600_000],
    [undefined, undefined, undefined],
  ])('Cache-Control %s, Expires %s', (cacheControl, expires, expected) => {
    expect(jwkSetExpiry(cacheControl, expires, NOW)).toBe(expected);
  });
});

describe('JSON paths', () => {
  it.each([
    ['$', []],
    ['$.a.b', ['a', 'b']],
    ['$.roles[0]', ['roles', 0]],
    ["$['https://x.io/claims'].id", ['https://x.io/claims', 'id']],
    ['$["a b"]', ['a b']],
    ['a.b', ['a', 'b']],
  ])('parses %s', (text, path) => {
    expect(parseJsonPath(text)).toEqual(path);
  });

  it.each(['', '$.', '$.a[', "$['a"])('refuses "%s"', (text) => {
    expect(parseJsonPath(text)).toBeUndefined();
  });

  it('reads a value, or undefined when a step is missing', () => {
    const doc = { a: { list: ['x', { y: 'z' }] } };
    expect(valueAt(doc, ['a', 'list', 1, 'y'])).toBe('z');
    expect(valueAt(doc, ['a', 'list', 5])).toBeUndefined();
    expect(valueAt(doc, ['a', 'toString'])).toBeUndefined();
    expect(valueAt(doc, [])).toBe(doc);
  });
});

describe('ExpiringCache', () => {
  it('drops expired entries and the least recently used one when full', () => {
    const cache = new ExpiringCache<string>(2);
    cache.set('a', 'A', NOW + 1000);
    cache.set('b', 'B', NOW + 1000);
    expect(cache.get('a', NOW)?.value).toBe('A');
    cache.set('c', 'C', NOW + 1000);
    expect(cache.get('b', NOW)).toBeUndefined();
    expect(cache.get('a', NOW)?.value).toBe('A');
    expect(cache.get('c', NOW + 1000)).toBeUndefined();
  });
});
