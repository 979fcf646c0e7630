/**
 * What the metrics count of GraphQL requests (`service_graphql_requests_total`,
 * `service_graphql_execution_time_seconds`); absent when metrics are off. The operation is
 * `unknown` when the request failed before its operation was known (authentication, parsing,
 * validation), as the well-known engine labels it.
 */
export type MeteredOperation = 'query' | 'mutation' | 'subscription' | 'unknown';

export interface RequestMeter {
  /** `startedAt`: `performance.now()` when the request came in (its authentication included, for HTTP). */
  request(operation: MeteredOperation, ok: boolean, startedAt: number): void;
}
