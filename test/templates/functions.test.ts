import { describe, expect, it } from 'vitest';
import { BASIC_FUNCTIONS, getSessionVariable, type TemplateFunction } from '../../src/templates/functions.js';
import type { JsonValue } from '../../src/templates/json.js';

const call = (name: string, arg: JsonValue) => (BASIC_FUNCTIONS[name] as TemplateFunction)(arg);
const ok = (value: JsonValue) => ({ ok: true, value });
const fails = (message: string) => ({ ok: false, message });
const mismatch = (context: string, expected: string, actual: string) =>
  fails(`parsing ${context} failed, expected ${expected}, but encountered ${actual}`);

describe('built-in functions', () => {
  it('empty', () => {
    const inputs: JsonValue[] = [{}, [], '', '  ', 0, null, { a: 1 }, [0], 'x', 2];
    expect(inputs.map((x) => call('empty', x))).toEqual(
      [true, true, true, true, true, true, false, false, false, false].map(ok),
    );
    expect(call('empty', true)).toEqual(fails('Cannot define emptiness for a boolean'));
  });

  it('size', () => {
    expect([[1, 2], 'héllo', { a: 1, b: 2 }, 7.5, true, false, null].map((x) => call('size', x))).toEqual([2, 5, 2, 7.5, 1, 0, 0].map(ok));
  });

  it('inverse', () => {
    expect([[1, 2, 3], 'abc', 4, true, { a: 1 }, null].map((x) => call('inverse', x))).toEqual(
      [[3, 2, 1], 'cba', 0.25, false, { a: 1 }, null].map(ok),
    );
    expect(call('inverse', 0)).toEqual(fails('divide by zero'));
  });

  it('head and tail', () => {
    expect(call('head', [1, 2])).toEqual(ok(1));
    expect(call('head', 'abc')).toEqual(ok('a'));
    expect(call('head', [])).toEqual(fails('Empty array'));
    expect(call('head', '')).toEqual(fails('Empty string'));
    expect(call('head', 1)).toEqual(fails('Expected an array or string'));
    expect(call('tail', [1, 2])).toEqual(ok([2]));
    expect(call('tail', 'abc')).toEqual(ok('bc'));
    expect(call('tail', {})).toEqual(fails('Expected an array or string'));
  });

  it('case conversions, failing on non-strings', () => {
    expect(call('toCaseFold', 'Straße')).toEqual(ok('strasse'));
    expect(call('toLower', 'ABC def')).toEqual(ok('abc def'));
    expect(call('toUpper', 'abc Def')).toEqual(ok('ABC DEF'));
    expect(call('toTitle', "hello wORLD don't")).toEqual(ok("Hello World Don'T"));
    for (const f of ['toCaseFold', 'toLower', 'toUpper', 'toTitle', 'escapeUri']) expect(call(f, 1)).toEqual(mismatch('String', 'String', 'Number'));
  });

  it('escapeUri keeps only unreserved characters', () => {
    expect(call('escapeUri', "a b/c?d=é~_.-!*'()")).toEqual(ok('a%20b%2Fc%3Fd%3D%C3%A9~_.-%21%2A%27%28%29'));
  });

  it('fromPairs and toPairs', () => {
    expect(call('fromPairs', [['a', 1], ['b', 2], ['a', 3]])).toEqual(ok({ a: 3, b: 2 }));
    expect(call('fromPairs', {})).toEqual(mismatch('Nested Arrays', 'Array', 'Object'));
    expect(call('fromPairs', [1])).toEqual(mismatch('Array of Pair', 'Array', 'Number'));
    expect(call('fromPairs', [['a']])).toEqual(fails('Expected an array of shape [ [k1,v1], [k2,v2] ... ] - With String keys.'));
    expect(call('fromPairs', [[1, 2]])).toEqual(mismatch('Key', 'String', 'Number'));
    expect(call('toPairs', { b: 1, a: [2] })).toEqual(ok([['a', [2]], ['b', 1]]));
    expect(call('toPairs', [])).toEqual(mismatch('Object', 'Object', 'Array'));
  });

  it('removeNulls', () => {
    expect(call('removeNulls', [1, null, 'a', null])).toEqual(ok([1, 'a']));
    expect(call('removeNulls', 'x')).toEqual(mismatch('Array', 'Array', 'String'));
  });

  it('concat joins arrays, strings or objects (the right-most key wins)', () => {
    expect(call('concat', [[1], [2, [3]]])).toEqual(ok([1, 2, [3]]));
    expect(call('concat', ['a', 'b'])).toEqual(ok('ab'));
    expect(call('concat', [{ a: 1, b: 1 }, { b: 2 }])).toEqual(ok({ a: 1, b: 2 }));
    expect(call('concat', [])).toEqual(ok([]));
    expect(call('concat', [{}, 'x'])).toEqual(mismatch('Nested Object', 'Object', 'String'));
    expect(call('concat', 'ab')).toEqual(mismatch('Array', 'Array', 'String'));
  });

  it('not', () => {
    expect(call('not', true)).toEqual(ok(false));
    expect(call('not', 1)).toEqual(mismatch('Bool', 'Boolean', 'Number'));
  });
});

describe('getSessionVariable', () => {
  const f = getSessionVariable({ 'x-service-role': 'user', myvariable: 'some value' });

  it('looks names up without regard to case', () => {
    expect(f('myVariable')).toEqual(ok('some value'));
    expect(f('X-Service-Role')).toEqual(ok('user'));
  });

  it('gives null for null and fails otherwise', () => {
    expect(f(null)).toEqual(ok(null));
    expect(f('nope')).toEqual(fails('Session variable "nope" not found'));
    expect(f(1)).toEqual(fails('Session variable name should be a string'));
    expect(getSessionVariable(null)('a')).toEqual(fails('Session variable "a" not found'));
  });
});
