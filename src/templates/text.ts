/** Text operations with Data.Text's semantics, which work on code points. */

/** Data.Text's `Ord`: by code point, which differs from UTF-16 order above U+FFFF. */
export function compareText(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/**
 * Data.Text's `toCaseFold` (full Unicode case folding), approximated by upper- then
 * lower-casing, which folds ß to "ss" and ſ to "s" as case folding does.
 */
export function caseFold(s: string): string {
  return s.toUpperCase().toLowerCase();
}

/**
 * Data.Text's `toTitle`: a letter that follows a non-letter (or starts the text) is
 * upper-cased, a letter that follows a letter is lower-cased; so "don't" becomes "Don'T".
 */
export function toTitle(s: string): string {
  let out = '';
  let afterLetter = false;
  for (const ch of s) {
    const letter = /\p{L}/u.test(ch);
    out += letter ? (afterLetter ? ch.toLowerCase() : ch.toUpperCase()) : ch;
    afterLetter = letter;
  }
  return out;
}
