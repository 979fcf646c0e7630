/**
 * Client headers an outgoing call never forwards (spec "Authentication" item 6, the auth
 * webhook's GET; remote schemas with `forward_client_headers` too, as the well-known engine).
 */
export const NOT_FORWARDED: ReadonlySet<string> = new Set([
  'content-length',
  'content-type',
  'content-md5',
  'user-agent',
  'host',
  'origin',
  'referer',
  'accept',
  'accept-encoding',
  'accept-language',
  'accept-datetime',
  'cache-control',
  'connection',
  'dnt',
]);
