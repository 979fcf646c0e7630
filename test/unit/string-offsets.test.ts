import { buildSchema, parse, print } from 'graphql';
import { describe, expect, it } from 'vitest';
import { stringOffsetsAsInts } from '../../src/compiler/string-offsets.js';

const schema = buildSchema('type Row { id: Int } type Query { rows(offset: Int, limit: Int): [Row] remote(offset: String): Int }');
const rewrite = (q: string) => print(stringOffsetsAsInts(schema, parse(q))).replace(/\s+/g, ' ');

describe('offsets written as strings', () => {
  it('become integers where the argument is an Int named offset', () => {
    expect(rewrite('{ rows(offset: "12", limit: 1) { id } }')).toBe('{ rows(offset: 12, limit: 1) { id } }');
  });

  it('stay strings elsewhere: an offset of another type, another argument, not only digits', () => {
    expect(rewrite('{ remote(offset: "12") }')).toBe('{ remote(offset: "12") }');
    expect(rewrite('{ rows(limit: "1") { id } }')).toBe('{ rows(limit: "1") { id } }');
    expect(rewrite('{ rows(offset: "-1") { id } rows2: rows(offset: "1e3") { id } }')).toBe('{ rows(offset: "-1") { id } rows2: rows(offset: "1e3") { id } }');
  });
});
