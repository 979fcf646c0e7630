/**
 * GraphiQL's fetcher: queries and mutations POSTed to `/v1/graphql` of this origin, subscriptions
 * over `graphql-transport-ws` on the same path, both with the explorer's headers (the socket
 * carries them in `connection_init`'s payload as `{headers}`, which the engine reads as a
 * request's headers).
 */
import { createGraphiQLFetcher, type Fetcher } from '@graphiql/toolkit';
import { createClient } from 'graphql-ws';

const GRAPHQL_PATH = '/v1/graphql';

export const graphqlUrl = (): string => new URL(GRAPHQL_PATH, location.origin).href;

const socketUrl = (): string => `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${GRAPHQL_PATH}`;

export function createFetcher(headers: Record<string, string>): Fetcher {
  // Lazy: a socket is opened by the first subscription and closed after the last, so a fetcher
  // replaced by another (new headers) holds nothing open. No retry: a refused connection (a
  // wrong secret) is shown at once, as the query's answer.
  const wsClient = createClient({ url: socketUrl(), lazy: true, retryAttempts: 0, connectionParams: { headers } });
  // The engine answers one JSON body (no incremental delivery): ask for nothing else.
  return createGraphiQLFetcher({ url: graphqlUrl(), headers, wsClient, enableIncrementalDelivery: false });
}
