/**
 * When a webhook answer or a JWK set goes stale, from `Cache-Control` and `Expires` (spec
 * "Authentication" item 10; the JWK rules of the well-known engine's "JWT mode" page).
 * Unparsable values count as absent: they never make a credential live longer.
 */

/** Directive name (lower case) → value (`true` for a bare directive). */
function cacheDirectives(value: string): Map<string, string | true> {
  const directives = new Map<string, string | true>();
  for (const part of value.split(',')) {
    const eq = part.indexOf('=');
    const name = (eq < 0 ? part : part.slice(0, eq)).trim().toLowerCase();
    if (name === '') continue;
    directives.set(name, eq < 0 ? true : part.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1'));
  }
  return directives;
}

function maxAgeSeconds(directives: Map<string, string | true>): number | undefined {
  const v = directives.get('max-age') ?? directives.get('s-maxage');
  return typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : undefined;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const HTTP_DATE = /^(Sun|Mon|Tue|Wed|Thu|Fri|Sat), (\d{1,2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;

/** Milliseconds since the epoch of `%a, %d %b %Y %T GMT`; undefined for anything else. */
export function parseHttpDate(text: string): number | undefined {
  const m = HTTP_DATE.exec(text.trim());
  if (!m) return undefined;
  const [, day, date, month, year, hh, mm, ss] = m as unknown as [string, string, string, string, string, string, string, string];
  const ms = Date.UTC(Number(year), MONTHS.indexOf(month), Number(date), Number(hh), Number(mm), Number(ss));
  const d = new Date(ms);
  // Reject impossible dates (31 Feb) and a weekday that does not match the date.
  if (d.getUTCDate() !== Number(date) || DAYS[d.getUTCDay()] !== day || Number(hh) > 23 || Number(mm) > 59 || Number(ss) > 59) return undefined;
  return ms;
}

/** A webhook answer's expiry: `Cache-Control: max-age` first, else `Expires`. */
export function webhookExpiry(cacheControl: string | undefined, expires: string | undefined, now: number): number | undefined {
  const maxAge = cacheControl === undefined ? undefined : maxAgeSeconds(cacheDirectives(cacheControl));
  if (maxAge !== undefined) return now + maxAge * 1000;
  return expires === undefined ? undefined : parseHttpDate(expires);
}

/**
 * A JWK set's expiry: `must-revalidate` uses `max-age` (or now); `no-cache`/`no-store` mean
 * now; else `max-age`/`s-maxage`; else `Expires`. Undefined: the provider does not rotate.
 */
export function jwkSetExpiry(cacheControl: string | undefined, expires: string | undefined, now: number): number | undefined {
  if (cacheControl !== undefined) {
    const directives = cacheDirectives(cacheControl);
    const maxAge = maxAgeSeconds(directives);
    const at = maxAge === undefined ? undefined : now + maxAge * 1000;
    if (directives.has('must-revalidate')) return at ?? now;
    if (directives.has('no-cache') || directives.has('no-store')) return now;
    if (at !== undefined) return at;
  }
  return expires === undefined ? undefined : parseHttpDate(expires);
}
