/** `name=value` lines, the form the transform fields take maps in (query parameters, headers, sample environment). */

/** The lines' pairs; a line without `=` or a name is left out, the first `=` splits. */
export function pairsOf(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf('=');
    const name = at < 0 ? '' : line.slice(0, at).trim();
    if (name) out[name] = line.slice(at + 1).trim();
  }
  return out;
}

export const linesOf = (pairs: Record<string, unknown> | undefined): string =>
  Object.entries(pairs ?? {})
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : ''}`)
    .join('\n');
