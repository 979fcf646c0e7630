/**
 * Calling a remote GraphQL server (spec "Remote schema"): its URL and headers from the
 * definition (values or the environment), a POST of `{query, variables}` through the one
 * outgoing HTTP client within `timeout_seconds`, and the answer read as a GraphQL response.
 * Used by the metadata actor (introspection) and by the executor (forwarded fields).
 */
import type { HttpClient, OutgoingRequest } from '../outgoing/http-client.js';
import { DEFAULT_REMOTE_TIMEOUT_SECONDS, type RemoteDefinition } from '../metadata/remote-schemas.js';
import { fillUrlTemplate } from '../metadata/url-template.js';

/** Which server to call and how. */
export interface RemoteEndpoint {
  url: URL;
  headers: Record<string, string>;
  timeoutMs: number;
  forwardClientHeaders: boolean;
}

/** A remote schema's server as a plan's remote steps call it: its endpoint and the outgoing client. */
export interface RemoteServer {
  endpoint: RemoteEndpoint;
  client: HttpClient;
}

export interface RemoteAnswer {
  data: unknown;
  errors?: unknown[];
  /** The server's `Set-Cookie` values (the client gets them over HTTP). */
  setCookies?: string[];
}

/** The definition's URL and headers with the environment read; throws an Error saying what is missing. */
export function remoteEndpoint(d: RemoteDefinition, env: NodeJS.ProcessEnv = process.env): RemoteEndpoint {
  let text: string;
  if (d.url !== undefined) text = fillUrlTemplate(d.url, env);
  else {
    const value = env[d.url_from_env!];
    if (!value) throw new Error(`environment variable ${JSON.stringify(d.url_from_env)} is not set`);
    text = value;
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`${JSON.stringify(text)} is not a valid URL`);
  }
  const headers: Record<string, string> = {};
  for (const h of d.headers ?? []) {
    const value = h.value ?? env[h.value_from_env!];
    if (value === undefined) throw new Error(`environment variable ${JSON.stringify(h.value_from_env)} of header ${JSON.stringify(h.name)} is not set`);
    headers[h.name.toLowerCase()] = value;
  }
  return { url, headers, timeoutMs: (d.timeout_seconds ?? DEFAULT_REMOTE_TIMEOUT_SECONDS) * 1000, forwardClientHeaders: d.forward_client_headers === true };
}

/** Answers larger than this are refused (a broken server must not exhaust memory). */
export const REMOTE_MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/** One GraphQL request; throws an Error for a failed call, a non-JSON answer or one that is not a GraphQL response. `span`: the call's, when traced. */
export async function callRemote(client: HttpClient, endpoint: RemoteEndpoint, headers: Record<string, string>, body: { query: string; variables?: Record<string, unknown> }, span?: OutgoingRequest['span']): Promise<RemoteAnswer> {
  const answer = await client.send(
    endpoint.url,
    {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      ...(span ? { span } : {}),
    },
    endpoint.timeoutMs,
  );
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.body.toString('utf8'));
  } catch {
    throw new Error(`the remote server answered status ${answer.status} with a body that is not JSON`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || !('data' in parsed || 'errors' in parsed)) {
    throw new Error(`the remote server answered status ${answer.status} with JSON that is not a GraphQL response`);
  }
  const r = parsed as { data?: unknown; errors?: unknown };
  const setCookies = answer.headers['set-cookie'] ?? [];
  return { data: r.data ?? null, ...(Array.isArray(r.errors) && r.errors.length > 0 ? { errors: r.errors } : {}), ...(setCookies.length > 0 ? { setCookies } : {}) };
}
