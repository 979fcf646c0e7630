import { describe, expect, it } from 'vitest';
import { sameJson } from '../../src/util/same-json.js';

describe('sameJson', () => {
  it('is true exactly when the two values serialise to the same text', () => {
    const cases: [unknown, unknown][] = [
      [{ a: [1, { b: null }] }, { a: [1, { b: null }] }],
      [{ a: 1, b: 2 }, { b: 2, a: 1 }],
      [[1, 2], [1, 2, 3]],
      [{ a: [] }, { a: {} }],
      ['1', 1],
      [null, {}],
      [{ a: { _eq: 'X-Service-User-Id' } }, { a: { _eq: 'X-Service-User-Id' } }],
    ];
    for (const [a, b] of cases) expect(sameJson(a, b)).toBe(JSON.stringify(a) === JSON.stringify(b));
  });
});
