/**
 * The index of the first item whose key an earlier item already has, or -1. One pass: a
 * document lists thousands of tables (a pairwise check was 12.5 million comparisons at 5,000).
 */
export function firstRepeat<T>(items: readonly T[], key: (item: T) => unknown): number {
  const seen = new Set<unknown>();
  for (let i = 0; i < items.length; i++) {
    const k = key(items[i]!);
    if (seen.has(k)) return i;
    seen.add(k);
  }
  return -1;
}
