/**
 * Hasura walks several user-written maps (form fields, added headers, query parameters)
 * through Haskell's `HashMap`, so they reach the request in the order of that hash trie,
 * not as written. This reproduces the order for the library versions Hasura's reference
 * tests were recorded with: hashable-1.3 hashes `Data.Text` (text-1.x, UTF-16 code units)
 * with FNV-1 from its default salt, and unordered-containers' trie orders keys by 5-bit
 * slices of that hash, lowest slice first.
 */

const MASK = (1n << 64n) - 1n;
const FNV_PRIME = 16777619n;
const DEFAULT_SALT = 0xdc36d1615b7400a4n; // hashable's defaultSalt (-2578643520546668380) as a Word64

function hashText(text: string): bigint {
  const mix = (h: bigint, byte: number) => ((h * FNV_PRIME) & MASK) ^ BigInt(byte);
  let h = mix(DEFAULT_SALT, text.length); // the length is hashed in first
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    h = mix(mix(h, unit & 0xff), unit >> 8);
  }
  return h;
}

function compareTrie(a: bigint, b: bigint): number {
  for (let shift = 0n; shift < 64n; shift += 5n) {
    const d = Number((a >> shift) & 31n) - Number((b >> shift) & 31n);
    if (d !== 0) return d;
  }
  return 0;
}

/** `keys` in the order `HashMap.toList` gives them; `hashedAs` maps a key to the text hashed. */
export function hashMapOrder(keys: string[], hashedAs: (key: string) => string = (k) => k): string[] {
  return keys
    .map((key) => ({ key, hash: hashText(hashedAs(key)) }))
    .sort((x, y) => compareTrie(x.hash, y.hash))
    .map((x) => x.key);
}
