import { describe, expect, it } from 'vitest';
import { longArrays } from '../../src/util/json-scan.js';
import { isParsedWhenRead, parseJsonLazily } from '../../src/util/lazy-json.js';
import { DraftSession } from '../../src/util/draft.js';
import { tooDeepSegments } from '../../src/util/nesting.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');
const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

const VALID = [
  '1',
  '-0.5e+10',
  '"x"',
  'true',
  ' null ',
  '{}',
  '[]',
  '{"a":[1,{"b":[]}],"c":{},"d":"say \\"[[\\" \\\\ \\u00e9 \\/","e":-12.25E-3,"f":[true,false,null]}',
  '[{"é":"ünïcödé ☃"},["\\ud83d\\ude00"]]',
  '\t[ 1 ,\n 2\r ]',
];

const INVALID = [
  '',
  ' ',
  '{',
  '[1,]',
  '[,1]',
  '{"a"}',
  '{"a":1,}',
  '{a:1}',
  '01',
  '1.',
  '.5',
  '-',
  '1e',
  '+1',
  'tru',
  'nul',
  'truex',
  '"a',
  '"\\x"',
  '"\\u12g4"',
  '"tab\there"',
  '[1]]',
  '[1] 2',
  '{"a":1}}',
  '\uFEFF{}',
  '[1 2]',
  '{"a" 1}',
  '{"a":}',
  "['a']",
  'NaN',
];

describe('longArrays: what JSON.parse takes', () => {
  it('takes valid JSON and refuses what JSON.parse refuses', () => {
    for (const text of VALID) expect(longArrays(bytes(text), 256, 1 << 20), text).not.toBeNull();
    for (const text of INVALID) {
      expect(parses(text), text).toBe(false);
      expect(longArrays(bytes(text), 256, 1 << 20), text).toBeNull();
    }
  });

  it('agrees with JSON.parse on texts changed at random', () => {
    // A fixed generator: the same cases every run.
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const pieces = ['{', '}', '[', ']', ',', ':', '"', '\\', '0', '1', '-', '.', 'e', 'E', '+', 'u', 'a', ' ', 't', 'n', '\n', 'é'];
    for (const base of VALID) {
      for (let n = 0; n < 400; n++) {
        const at = Math.floor(random() * (base.length + 1));
        const piece = pieces[Math.floor(random() * pieces.length)]!;
        const op = random();
        const text = op < 0.33 ? base.slice(0, at) + piece + base.slice(at) : op < 0.66 ? base.slice(0, at) + piece + base.slice(at + 1) : base.slice(0, at) + base.slice(at + 1);
        expect(longArrays(bytes(text), 256, 1 << 20) !== null, JSON.stringify(text)).toBe(parses(text));
      }
    }
  });

  it('refuses a text nested deeper than the limit, as the walk of its value does', () => {
    const nested = (n: number): unknown => (n === 0 ? 'leaf' : n % 2 ? { k: nested(n - 1), s: '[{' } : [nested(n - 1), '}]']);
    for (const n of [1, 255, 256, 257, 300]) {
      const text = JSON.stringify(nested(n));
      expect(longArrays(bytes(text), 256, 1 << 20) === null, String(n)).toBe(tooDeepSegments(JSON.parse(text), 256) !== null);
    }
  });

  it('finds the innermost long arrays of objects or arrays, each element by its bytes', () => {
    const entries = Array.from({ length: 50 }, (_, i) => ({ name: `t${i}`, list: [i, { x: 'ü' }] }));
    const text = JSON.stringify({ sources: [{ name: 's', tables: entries, small: [{ a: 1 }, { b: 2 }] }], scalars: Array.from({ length: 500 }, (_, i) => i) });
    const found = longArrays(bytes(text), 256, 200)!;
    expect(found).toHaveLength(1);
    const buf = bytes(text);
    const [long] = found;
    expect(JSON.parse(buf.toString('utf8', long!.start, long!.end))).toEqual(entries);
    expect(long!.elements.length).toBe(100);
    expect(JSON.parse(buf.toString('utf8', long!.elements[2], long!.elements[3]))).toEqual(entries[1]);
  });
});

describe('parseJsonLazily', () => {
  const document = (tables: number) => ({
    type: 'replace_metadata',
    args: {
      version: 3,
      sources: [
        {
          name: 'default',
          tables: Array.from({ length: tables }, (_, i) => ({ table: { schema: 'public', name: `t${i}` }, select_permissions: [{ role: 'r', permission: { filter: { id: { _eq: i } }, note: 'x'.repeat(300) } }] })),
          configuration: {},
        },
      ],
    },
  });

  it('gives the value JSON.parse gives, the long list read element by element', () => {
    // An own `__proto__` key holding a long array stays an own key, as JSON.parse makes it.
    const text = JSON.stringify(document(5000)).replace('"version":3', `"__proto__":${JSON.stringify(Array.from({ length: 5000 }, (_, i) => ({ i, s: 'z'.repeat(300) })))},"version":3`);
    const lazy = parseJsonLazily(bytes(text), 256)!.value as ReturnType<typeof document>;
    expect(JSON.stringify(lazy)).toBe(text);
    const tables = lazy.args.sources[0]!.tables;
    expect(Array.isArray(tables)).toBe(true);
    expect(tables.map((t) => t.table.name)[4999]).toBe('t4999');
    expect([...tables][17]).toEqual(JSON.parse(text).args.sources[0].tables[17]);
    expect(Object.keys(lazy.args)).toEqual(['__proto__', 'version', 'sources']);
    expect(Object.getPrototypeOf(lazy.args)).toBe(Object.prototype);
    // A reader that writes an element reads back what it wrote.
    tables[3] = { table: { schema: 'x', name: 'y' }, select_permissions: [] };
    expect(tables[3]!.table.name).toBe('y');
  });

  it('parses a body without long arrays whole, and refuses what the scan refuses', () => {
    expect(parseJsonLazily(bytes('{"a":[1,2]}'), 256)!.value).toEqual({ a: [1, 2] });
    expect(parseJsonLazily(bytes('{"a":'), 256)).toBeNull();
    expect(parseJsonLazily(bytes('[[[1]]]'), 2)).toBeNull();
  });

  it('leaves strings shaped like its markers alone', () => {
    const value = { list: Array.from({ length: 4000 }, (_, i) => ({ i, s: 'y'.repeat(300) })), s: `\u0000long array ${'0'.repeat(24)} 0` };
    const lazy = parseJsonLazily(bytes(JSON.stringify(value)), 256)!.value as typeof value;
    expect(lazy.s).toBe(value.s);
    expect(lazy.list[3999]).toEqual(value.list[3999]);
  });
});

describe('a long array a command keeps', () => {
  it('is made a plain array when the draft session finishes', () => {
    const value = { notes: Array.from({ length: 4000 }, (_, i) => ({ i, s: 'y'.repeat(300) })) };
    const parsed = parseJsonLazily(bytes(JSON.stringify(value)), 256)!.value as typeof value;
    expect(isParsedWhenRead(parsed.notes)).toBe(true);
    const kept = new DraftSession().finish({ kept: parsed.notes });
    expect(isParsedWhenRead(kept.kept)).toBe(false);
    expect(Object.isFrozen(kept.kept) && Object.isFrozen(kept.kept[0])).toBe(true);
    expect(kept.kept[17]).toBe(kept.kept[17]);
    expect(kept.kept).toEqual(value.notes);
  });
});
