/** What the REST pages share: the collection the well-known console keeps endpoints' queries in, and URL templates. */
import type { Metadata } from '../../../api/metadata';

export type Endpoint = NonNullable<Metadata['rest_endpoints']>[number];

/** As in the well-known console: an endpoint made from the console keeps its query here. */
export const ENDPOINTS_COLLECTION = 'allowed-queries';

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** The `:name` parameters of a URL template (`users/:id` → `['id']`). */
export const urlVariables = (url: string): string[] =>
  url
    .split('/')
    .filter((s) => s.startsWith(':'))
    .map((s) => s.slice(1));

/** The endpoint's path under `/api/rest/`, its parameters filled (each encoded). */
export const fillUrl = (url: string, values: Record<string, string>): string =>
  '/api/rest/' +
  url
    .split('/')
    .map((s) => (s.startsWith(':') ? encodeURIComponent(values[s.slice(1)] ?? '') : s))
    .join('/');

/** The query text an endpoint serves, or undefined when its collection or query is gone. */
export const endpointQuery = (m: Metadata | null, e: Endpoint): string | undefined =>
  m?.query_collections?.find((c) => c.name === e.definition.query.collection_name)?.definition.queries.find((q) => q.name === e.definition.query.query_name)?.query;
