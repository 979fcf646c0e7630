/**
 * A remote server's schema, read with the standard introspection query (the metadata actor
 * does this once per definition: the result lives in the snapshot, never refetched per
 * request). The result is checked by building a client schema from it.
 */
import { buildClientSchema, getIntrospectionQuery, type IntrospectionQuery } from 'graphql';
import type { HttpClient } from '../outgoing/http-client.js';
import type { RemoteDefinition } from '../metadata/remote-schemas.js';
import { callRemote, remoteEndpoint } from './server.js';

export type RemoteIntrospection = IntrospectionQuery;

/** The server's introspection; throws an Error with the reason it could not be had. */
export async function introspectRemote(client: HttpClient, d: RemoteDefinition): Promise<RemoteIntrospection> {
  const endpoint = remoteEndpoint(d);
  let answer;
  try {
    answer = await callRemote(client, endpoint, endpoint.headers, { query: getIntrospectionQuery() });
  } catch (e) {
    throw new Error(`introspection of the remote server at ${endpoint.url.href} failed: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (answer.errors) throw new Error(`the remote server at ${endpoint.url.href} answered the introspection query with errors: ${JSON.stringify(answer.errors).slice(0, 500)}`);
  const data = answer.data as IntrospectionQuery | null;
  try {
    if (!data || typeof data !== 'object' || !data.__schema) throw new Error('no __schema in the answer');
    buildClientSchema(data);
  } catch (e) {
    throw new Error(`the remote server at ${endpoint.url.href} answered an invalid introspection: ${e instanceof Error ? e.message : String(e)}`);
  }
  return data;
}
