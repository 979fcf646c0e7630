/**
 * English singular and plural of a table name's last word, enough for relationship names: the
 * well-known console names a suggested object relationship after the singular of the table it
 * points to, an array relationship after the plural.
 */
const IRREGULAR: Record<string, string> = { person: 'people', child: 'children', man: 'men', woman: 'women', mouse: 'mice', goose: 'geese', tooth: 'teeth', foot: 'feet' };
const UNCOUNTABLE = new Set(['data', 'information', 'series', 'species', 'news', 'equipment', 'metadata', 'sheep', 'fish', 'money']);

/** Applies `f` to the last word (`blog_post` → `blog_` + f(`post`)), keeping the rest. */
function lastWord(name: string, f: (word: string) => string): string {
  const m = /^(.*?)([A-Za-z]+)$/.exec(name);
  if (!m) return name;
  const word = m[2]!;
  const lower = word.toLowerCase();
  if (UNCOUNTABLE.has(lower)) return name;
  const out = f(lower);
  return m[1]! + (word[0] === word[0]!.toUpperCase() ? out[0]!.toUpperCase() + out.slice(1) : out);
}

export const pluralize = (name: string): string =>
  lastWord(name, (w) => {
    if (IRREGULAR[w]) return IRREGULAR[w]!;
    if (Object.values(IRREGULAR).includes(w)) return w;
    if (/[^aeiou]y$/.test(w)) return w.slice(0, -1) + 'ies';
    // A name already plural (`articles`) stays so.
    if (/[^su]s$/.test(w) && !/is$/.test(w)) return w;
    if (/(s|x|z|ch|sh)$/.test(w)) return w + 'es';
    return w + 's';
  });

export const singularize = (name: string): string =>
  lastWord(name, (w) => {
    const irregular = Object.entries(IRREGULAR).find(([, plural]) => plural === w);
    if (irregular) return irregular[0];
    if (/[^aeiou]ies$/.test(w)) return w.slice(0, -3) + 'y';
    if (/(ss|x|z|ch|sh)es$/.test(w)) return w.slice(0, -2);
    if (/ss$|us$|is$/.test(w)) return w;
    if (/s$/.test(w)) return w.slice(0, -1);
    return w;
  });
