/**
 * The parts of an HTTP request that webhook transforms read and write, with the rules of
 * the Haskell libraries behind Hasura: http-client's `parseRequest` (building a request
 * from a URL) and `getUri` (rendering its URL back), and the setter of Hasura's `url` lens.
 */
import { escapeUriString, isAllowedInUri, parseAbsoluteUri, parseQuery, renderQuery, type Query, type Uri } from './uri.js';

export interface HttpRequest {
  method: string;
  secure: boolean;
  /** The host, with any user info the `url` setter folds into it. */
  host: string;
  port: number;
  path: string;
  query: Query;
  headers: [string, string][];
  /** The body text; empty for none. */
  body: string;
}

export type MakeRequestResult = { ok: true; request: HttpRequest } | { ok: false; message: string };

const defaultPort = (secure: boolean) => (secure ? 443 : 80);

/** http-client's `parseRequest`, failing with Haskell's rendering of its exception. */
export function makeRequest(url: string): MakeRequestResult {
  // "POST http://..." names the method.
  const space = url.indexOf(' ');
  const hasMethod = space >= 0 && /^[A-Z]*$/.test(url.slice(0, space));
  const text = hasMethod ? url.slice(space + 1) : url;
  const uri = parseAbsoluteUri(escapeUriString(text, isAllowedInUri));
  if (!uri) return invalidUrl(text, 'Invalid URL');
  const scheme = uri.scheme.toLowerCase();
  if (scheme !== 'http:' && scheme !== 'https:') return invalidUrl(showUri(uri), 'Invalid scheme');
  if (!uri.authority) return invalidUrl(showUri(uri), 'URL must be absolute');
  const secure = scheme === 'https:';
  const { port } = uri.authority;
  if (port === ':') return invalidUrl(showUri(uri), 'Invalid port');
  return {
    ok: true,
    request: {
      method: hasMethod ? url.slice(0, space) : 'GET',
      secure,
      host: uri.authority.host,
      port: port === '' ? defaultPort(secure) : Number(port.slice(1)),
      path: uri.path === '' ? '/' : uri.path,
      query: parseQuery(uri.query),
      headers: [],
      body: '',
    },
  };
}

/** http-client's `getUri`, as Hasura's `url` lens reads it: no fragment, default ports left out. */
export function requestUrl(r: HttpRequest): string {
  const port = r.port === defaultPort(r.secure) ? '' : `:${r.port}`;
  return `${r.secure ? 'https' : 'http'}://${r.host}${port}${r.path}${renderQuery(r.query)}`;
}

/**
 * Hasura's `url` lens setter: scheme, host, port, path and query come from `url`, whose
 * path is kept even when empty; a URL without an authority leaves the request unchanged.
 */
export function setRequestUrl(r: HttpRequest, url: string): HttpRequest {
  const uri = parseAbsoluteUri(url);
  if (!uri?.authority) return r;
  const secure = uri.scheme === 'https:';
  const { userInfo, host, port } = uri.authority;
  return {
    ...r,
    secure,
    host: userInfo + host,
    port: port.length > 1 ? Number(port.slice(1)) : defaultPort(secure),
    path: uri.path,
    query: parseQuery(uri.query),
  };
}

function invalidUrl(url: string, reason: string): MakeRequestResult {
  return { ok: false, message: `InvalidUrlException ${showString(url)} ${showString(reason)}` };
}

/** network-uri's `show`, which masks a password in the user info. */
function showUri(uri: Uri): string {
  const auth = uri.authority;
  let userInfo = auth?.userInfo ?? '';
  const colon = userInfo.indexOf(':');
  if (colon >= 0 && userInfo.slice(colon) !== ':@') userInfo = `${userInfo.slice(0, colon)}:...@`;
  const authority = auth ? `//${userInfo}${auth.host}${auth.port}` : '';
  return `${uri.scheme}${authority}${uri.path}${uri.query}${uri.fragment}`;
}

const CONTROL_NAMES = ['NUL', 'SOH', 'STX', 'ETX', 'EOT', 'ENQ', 'ACK', 'a', 'b', 't', 'n', 'v', 'f', 'r', 'SO', 'SI']
  .concat(['DLE', 'DC1', 'DC2', 'DC3', 'DC4', 'NAK', 'SYN', 'ETB', 'CAN', 'EM', 'SUB', 'ESC', 'FS', 'GS', 'RS', 'US']);

/** Haskell's `show` for a String. */
function showString(s: string): string {
  let out = '"';
  const chars = [...s];
  chars.forEach((ch, i) => {
    const c = ch.codePointAt(0)!;
    const nextChar = chars[i + 1] ?? '';
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (c >= 0x20 && c < 0x7f) out += ch;
    else if (c < 0x20) out += `\\${CONTROL_NAMES[c]}${CONTROL_NAMES[c] === 'SO' && nextChar === 'H' ? '\\&' : ''}`;
    else if (c === 0x7f) out += '\\DEL';
    else out += `\\${c}${/[0-9]/.test(nextChar) ? '\\&' : ''}`;
  });
  return `${out}"`;
}
