/**
 * One pass over a JSON text's bytes that checks it is valid JSON nested no deeper than a limit,
 * and finds its long arrays of small objects or arrays (a document's table entries): the ones
 * `lazy-json.ts` leaves as text until they are read. Reads bytes without allocating per value: a
 * 39 MiB admin body is scanned in 0.1-0.2 s, as long as the nesting check it replaced took alone.
 */

/** The bytes of an array whose elements are each parsed when read: `[start, end)` of each, in order. */
export interface LongArrayText {
  start: number;
  end: number;
  elements: Int32Array;
}

const OBJECT = 1;
const ARRAY = 2;

/** What the scan expects next. */
const Expect = { Value: 0, ValueOrClose: 1, Key: 2, KeyOrClose: 3, Colon: 4, CommaOrClose: 5 } as const;

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isHex = (c: number) => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
/** Bytes a string holds as they are: not a quote, a backslash or a control character. */
const PLAIN = new Uint8Array(256).map((_, c) => (c >= 0x20 && c !== 0x22 && c !== 0x5c ? 1 : 0));
/** What may follow a backslash besides `u`. */
const ESCAPED = new Uint8Array(256).map((_, c) => ('"\\/bfnrt'.includes(String.fromCharCode(c)) ? 1 : 0));
const TRUE = [0x74, 0x72, 0x75, 0x65];
const FALSE = [0x66, 0x61, 0x6c, 0x73, 0x65];
const NULL = [0x6e, 0x75, 0x6c, 0x6c];

/** The end of the string whose opening quote is at `i` (past its closing quote), or -1 when it is not a valid JSON string. */
function stringEnd(b: Uint8Array, i: number): number {
  const n = b.length;
  for (i++; i < n; i++) {
    const c = b[i]!;
    if (PLAIN[c] === 1) continue;
    if (c === 0x22) return i + 1;
    if (c !== 0x5c) return -1;
    const e = b[++i]!;
    if (e === 0x75) {
      if (!(isHex(b[i + 1]!) && isHex(b[i + 2]!) && isHex(b[i + 3]!) && isHex(b[i + 4]!))) return -1;
      i += 4;
    } else if (i >= n || ESCAPED[e] !== 1) return -1;
  }
  return -1;
}

/** The end of the number starting at `i`, or -1 when it is not a valid JSON number. */
function numberEnd(b: Uint8Array, i: number): number {
  if (b[i] === 0x2d) i++;
  if (b[i] === 0x30) i++;
  else if (isDigit(b[i]!)) while (isDigit(b[i]!)) i++;
  else return -1;
  if (b[i] === 0x2e) {
    if (!isDigit(b[++i]!)) return -1;
    while (isDigit(b[i]!)) i++;
  }
  if (b[i] === 0x65 || b[i] === 0x45) {
    i++;
    if (b[i] === 0x2b || b[i] === 0x2d) i++;
    if (!isDigit(b[i]!)) return -1;
    while (isDigit(b[i]!)) i++;
  }
  return i;
}

function literalEnd(b: Uint8Array, i: number, word: number[]): number {
  for (let k = 0; k < word.length; k++) if (b[i + k] !== word[k]) return -1;
  return i + word.length;
}

/**
 * The long arrays of the UTF-8 JSON text `b`: arrays of at least `longBytes` bytes whose elements are all
 * objects or arrays, each shorter than that (the innermost such array: a document's table list,
 * not the list of sources holding it). Null when the text is not valid JSON (as `JSON.parse`
 * takes it) or is nested deeper than `maxDepth` levels of arrays and objects: the caller parses
 * it whole, for the error.
 */
export function longArrays(b: Uint8Array, maxDepth: number, longBytes: number): LongArrayText[] | null {
  const n = b.length;
  const kind = new Uint8Array(maxDepth + 1);
  const opened = new Int32Array(maxDepth + 1);
  // Per open array: where its elements' ranges begin on `ranges`, whether it has a scalar element, its longest element.
  const rangesFrom = new Int32Array(maxDepth + 1);
  const hasScalar = new Uint8Array(maxDepth + 1);
  const longest = new Int32Array(maxDepth + 1);
  let ranges = new Int32Array(1024);
  let top = 0;
  const found: LongArrayText[] = [];
  let depth = 0;
  let expect: number = Expect.Value;
  let i = 0;
  while (true) {
    while (i < n && isSpace(b[i]!)) i++;
    if (i === n) return depth === 0 && expect === Expect.CommaOrClose ? found : null;
    const c = b[i]!;
    switch (expect) {
      case Expect.Key:
      case Expect.KeyOrClose:
        if (c === 0x7d && expect === Expect.KeyOrClose) break;
        if (c !== 0x22) return null;
        i = stringEnd(b, i);
        if (i < 0) return null;
        // Most often the colon comes at once (a compact body): taken here, without a turn of the loop.
        if (b[i] === 0x3a) {
          i++;
          expect = Expect.Value;
        } else expect = Expect.Colon;
        continue;
      case Expect.Colon:
        if (c !== 0x3a) return null;
        i++;
        expect = Expect.Value;
        continue;
      case Expect.CommaOrClose:
        if (depth === 0) return null;
        if (c === 0x2c) {
          i++;
          expect = kind[depth] === OBJECT ? Expect.Key : Expect.Value;
          continue;
        }
        break;
      case Expect.Value:
      case Expect.ValueOrClose:
        if (c === 0x5d && expect === Expect.ValueOrClose) break;
        if (c === 0x7b || c === 0x5b) {
          if (depth === maxDepth) return null;
          depth++;
          kind[depth] = c === 0x7b ? OBJECT : ARRAY;
          opened[depth] = i;
          rangesFrom[depth] = top;
          hasScalar[depth] = 0;
          longest[depth] = 0;
          i++;
          expect = c === 0x7b ? Expect.KeyOrClose : Expect.ValueOrClose;
          continue;
        }
        i = c === 0x22 ? stringEnd(b, i) : c === 0x74 ? literalEnd(b, i, TRUE) : c === 0x66 ? literalEnd(b, i, FALSE) : c === 0x6e ? literalEnd(b, i, NULL) : numberEnd(b, i);
        if (i < 0) return null;
        if (kind[depth] === ARRAY) hasScalar[depth] = 1;
        expect = Expect.CommaOrClose;
        continue;
    }
    // A closing bracket, where one may come.
    if (c !== (kind[depth] === OBJECT ? 0x7d : 0x5d)) return null;
    const start = opened[depth]!;
    const end = i + 1;
    if (kind[depth] === ARRAY) {
      const from = rangesFrom[depth]!;
      if (end - start >= longBytes && hasScalar[depth] === 0 && top - from >= 4 && longest[depth]! < longBytes) {
        found.push({ start, end, elements: ranges.slice(from, top) });
      }
      top = from;
    }
    depth--;
    if (depth > 0 && kind[depth] === ARRAY) {
      if (top + 2 > ranges.length) {
        const grown = new Int32Array(ranges.length * 2);
        grown.set(ranges);
        ranges = grown;
      }
      ranges[top++] = start;
      ranges[top++] = end;
      if (end - start > longest[depth]!) longest[depth] = end - start;
    }
    i = end;
    expect = Expect.CommaOrClose;
  }
}
