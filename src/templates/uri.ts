/**
 * The parts of Haskell's network-uri and http-types that Hasura's webhook code relies on:
 * percent-encoding, `parseURI` for absolute URIs, and the query-string codec.
 */

const HEX = '0123456789ABCDEF';
const RESERVED = ":/?#[]@!$&'()*+,;=";

export const isUnreservedChar = (c: string) => /^[A-Za-z0-9\-_.~]$/.test(c);
export const isAllowedInUri = (c: string) => isUnreservedChar(c) || RESERVED.includes(c) || c === '%';

/** network-uri's `escapeURIString`: percent-encodes the UTF-8 bytes of characters `keep` rejects. */
export function escapeUriString(s: string, keep: (c: string) => boolean): string {
  let out = '';
  for (const ch of s) {
    if (keep(ch)) out += ch;
    else for (const b of new TextEncoder().encode(ch)) out += `%${HEX[b >> 4]}${HEX[b & 15]}`;
  }
  return out;
}

export const escapeUnreserved = (s: string) => escapeUriString(s, isUnreservedChar);

export interface UriAuthority {
  /** With its trailing `@`, or empty. */
  userInfo: string;
  host: string;
  /** With its leading `:`, or empty. */
  port: string;
}

export interface Uri {
  /** With its trailing `:`. */
  scheme: string;
  authority?: UriAuthority;
  path: string;
  /** With its leading `?`, or empty. */
  query: string;
  fragment: string;
}

const URI_TEXT = /^(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/;
const URI_PARTS = /^([A-Za-z][A-Za-z0-9+.-]*:)([^?#]*)(\?[^#]*)?(#.*)?$/;
const AUTHORITY = /^(?:([^@[\]]*)@)?(\[[^\]]*\]|[^:@[\]]*)(:[0-9]*)?$/;

/** network-uri's `parseURI`: an absolute URI, or `undefined`. */
export function parseAbsoluteUri(s: string): Uri | undefined {
  const m = URI_PARTS.exec(s);
  if (!m || !URI_TEXT.test(s)) return undefined;
  const [, scheme = '', hier = '', query = '', fragment = ''] = m;
  // Brackets belong to IP-literal hosts only; a second '#' is not allowed.
  if (/[[\]]/.test(query + fragment) || fragment.slice(1).includes('#')) return undefined;
  if (!hier.startsWith('//')) return /[[\]]/.test(hier) ? undefined : { scheme, path: hier, query, fragment };
  const slash = hier.indexOf('/', 2);
  const path = slash < 0 ? '' : hier.slice(slash);
  const a = AUTHORITY.exec(slash < 0 ? hier.slice(2) : hier.slice(2, slash));
  if (!a || /[[\]]/.test(path)) return undefined;
  const [, user, host = '', port = ''] = a;
  return { scheme, authority: { userInfo: user === undefined ? '' : `${user}@`, host, port }, path, query, fragment };
}

/** A parsed query string: names with optional values (`?flag` has none). */
export type Query = [string, string | null][];

function urlDecode(s: string): string {
  const raw = new TextEncoder().encode(s);
  const bytes: number[] = [];
  const hex = (b: number | undefined) => b !== undefined && /[0-9A-Fa-f]/.test(String.fromCharCode(b));
  for (let i = 0; i < raw.length; i++) {
    const b = raw[i]!;
    if (b === 0x2b) bytes.push(0x20);
    else if (b === 0x25 && hex(raw[i + 1]) && hex(raw[i + 2])) {
      bytes.push(parseInt(String.fromCharCode(raw[i + 1]!, raw[i + 2]!), 16));
      i += 2;
    } else bytes.push(b);
  }
  return new TextDecoder().decode(Uint8Array.from(bytes));
}

/** http-types' `parseQuery`: `&` or `;` separate pairs, `+` is a space. */
export function parseQuery(s: string): Query {
  const q = s.startsWith('?') ? s.slice(1) : s;
  if (q === '') return [];
  const parts = q.split(/[&;]/);
  if (parts[parts.length - 1] === '') parts.pop();
  return parts.map((part) => {
    const eq = part.indexOf('=');
    return eq < 0 ? [urlDecode(part), null] : [urlDecode(part.slice(0, eq)), urlDecode(part.slice(eq + 1))];
  });
}

/** http-types' `renderQuery True`. */
export function renderQuery(query: Query): string {
  if (query.length === 0) return '';
  const pairs = query.map(([k, v]) => escapeUnreserved(k) + (v === null ? '' : `=${escapeUnreserved(v)}`));
  return `?${pairs.join('&')}`;
}
