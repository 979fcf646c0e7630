/** Media types of GraphQL over HTTP (graphql.github.io/graphql-over-http, "Media Types"). */

export const GRAPHQL_RESPONSE = 'application/graphql-response+json';
export type ResponseMedia = typeof GRAPHQL_RESPONSE | 'application/json';

/**
 * The answer's media type from `Accept`: `application/graphql-response+json` when the client
 * lists it at least as high as anything JSON; otherwise (no header, `*\/*`, others)
 * `application/json`, which the spec says to assume.
 */
export function responseMedia(accept: string): ResponseMedia {
  if (accept === '' || !accept.includes(GRAPHQL_RESPONSE)) return 'application/json';
  let graphqlQ = 0;
  let jsonQ = 0;
  for (const part of accept.split(',')) {
    const [type = '', ...params] = part.split(';');
    const t = type.trim().toLowerCase();
    const qParam = params.find((p) => p.trim().startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.trim().slice(2)) || 0;
    if (t === GRAPHQL_RESPONSE) graphqlQ = Math.max(graphqlQ, q);
    else if (t === 'application/json' || t === 'application/*' || t === '*/*') jsonQ = Math.max(jsonQ, q);
  }
  return graphqlQ > 0 && graphqlQ >= jsonQ ? GRAPHQL_RESPONSE : 'application/json';
}

/** `application/json`, or any `application/...+json` type; parameters (charset) ignored. */
export function isJsonContentType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const type = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}
