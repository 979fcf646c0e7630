import { describe, expect, it } from 'vitest';
import { jsonTextDepth, tooDeepSegments } from '../../src/util/nesting.js';

describe('jsonTextDepth', () => {
  it('counts levels of arrays and objects, the top level being 1', () => {
    expect(jsonTextDepth('1')).toBe(0);
    expect(jsonTextDepth('"x"')).toBe(0);
    expect(jsonTextDepth('{}')).toBe(1);
    expect(jsonTextDepth('{"a":[1,{"b":[]}],"c":{}}')).toBe(4);
  });

  it('ignores brackets inside strings, escaped quotes and backslashes included', () => {
    expect(jsonTextDepth(JSON.stringify({ a: '[[[{{{', b: 'say \\"[[[\\" \\\\', c: ['"]]]"', '\\'] }))).toBe(2);
    expect(jsonTextDepth(JSON.stringify(['\\', [['\\"[']]]))).toBe(3);
  });

  it('agrees with the walk of the parsed value on the limit', () => {
    const nested = (n: number): unknown => (n === 0 ? 'leaf' : n % 2 ? { k: nested(n - 1), s: '[{' } : [nested(n - 1), '}]']);
    for (const n of [1, 255, 256, 257, 300]) {
      const text = JSON.stringify(nested(n));
      expect(jsonTextDepth(text)).toBe(n);
      expect(jsonTextDepth(text) > 256).toBe(tooDeepSegments(JSON.parse(text), 256) !== null);
    }
  });
});
