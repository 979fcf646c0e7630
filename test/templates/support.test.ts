import { describe, expect, it } from 'vitest';
import { hashMapOrder } from '../../src/templates/hashmap-order.js';
import { makeRequest, requestUrl, setRequestUrl } from '../../src/templates/http-request.js';
import { encodeJson, jsonCompare, showScientific } from '../../src/templates/json.js';
import { parseAbsoluteUri, parseQuery, renderQuery } from '../../src/templates/uri.js';

describe('aeson-compatible JSON', () => {
  it('shows numbers as Data.Scientific does', () => {
    expect([5, 0, 0.5, -2.5, 0.01, 1234567, 12345678, 1e21].map(showScientific)).toEqual([
      '5.0',
      '0.0',
      '0.5',
      '-2.5',
      '1.0e-2',
      '1234567.0',
      '1.2345678e7',
      '1.0e21',
    ]);
  });

  it('encodes compactly with sorted keys, integers in full', () => {
    expect(encodeJson({ b: [1, 1.5, 1e21], a: 'x"\\\n\u0001' })).toBe('{"a":"x\\"\\\\\\n\\u0001","b":[1,1.5,1000000000000000000000]}');
  });

  it('orders values by constructor first', () => {
    const sorted = [null, true, 1, 'a', [1], { a: 1 }].sort(jsonCompare);
    expect(sorted).toEqual([{ a: 1 }, [1], 'a', 1, true, null]);
  });
});

describe('HashMap order', () => {
  it('matches the order Hasura emits for the reference cases', () => {
    expect(hashMapOrder(['foo', 'content-type'])).toEqual(['content-type', 'foo']);
    expect(hashMapOrder(['foo', 'baz'])).toEqual(['foo', 'baz']);
  });
});

describe('URIs and requests', () => {
  it('parses absolute URIs only', () => {
    expect(parseAbsoluteUri('http://u:p@h:81/a?b#c')).toEqual({
      scheme: 'http:',
      authority: { userInfo: 'u:p@', host: 'h', port: ':81' },
      path: '/a',
      query: '?b',
      fragment: '#c',
    });
    expect(parseAbsoluteUri('mailto:x@y')).toMatchObject({ path: 'x@y' });
    for (const bad of ['/relative', 'http://a b', 'http://h:x', 'http://h/%zz', '']) expect(parseAbsoluteUri(bad)).toBeUndefined();
  });

  it('codes query strings as http-types does', () => {
    expect(parseQuery('?a=1+2&b&&c=%C3%A9;d=')).toEqual([
      ['a', '1 2'],
      ['b', null],
      ['', null],
      ['c', 'é'],
      ['d', ''],
    ]);
    expect(renderQuery([['a b', 'é'], ['f', null]])).toBe('?a%20b=%C3%A9&f');
    expect(renderQuery([])).toBe('');
  });

  it('builds a request from a URL as http-client does', () => {
    const r = makeRequest('http://localhost:1234');
    expect(r.ok && requestUrl(r.request)).toBe('http://localhost:1234/');
    const post = makeRequest('POST https://h:443/p?x=1');
    expect(post.ok && [post.request.method, requestUrl(post.request)]).toEqual(['POST', 'https://h/p?x=1']);
    expect(makeRequest('ftp://h')).toEqual({ ok: false, message: 'InvalidUrlException "ftp://h" "Invalid scheme"' });
    expect(makeRequest('localhost')).toEqual({ ok: false, message: 'InvalidUrlException "localhost" "Invalid URL"' });
    expect(makeRequest('http:foo')).toEqual({ ok: false, message: 'InvalidUrlException "http:foo" "URL must be absolute"' });
  });

  it('sets a URL keeping its path as written', () => {
    const r = makeRequest('http://localhost:1234/a');
    if (!r.ok) throw new Error(r.message);
    expect(requestUrl(setRequestUrl(r.request, 'https://example.com'))).toBe('https://example.com');
    expect(requestUrl(setRequestUrl(r.request, 'mailto:x'))).toBe('http://localhost:1234/a');
  });
});
