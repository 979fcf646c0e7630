/**
 * The well-known engine's metric names (`hasura_` becomes `service_`) and histogram buckets, in
 * seconds, so that its dashboards and alerts work unchanged. Each thread registers the metrics it
 * counts; the front thread sums them at a scrape (`scrape.ts`).
 */
export const PREFIX = 'service_';

/** `graphql_execution_time_seconds`, `event_webhook_processing_time_seconds`. */
export const REQUEST_BUCKETS = [0.01, 0.03, 0.1, 0.3, 1, 3, 10];
/** `event_processing_time_seconds`, `event_queue_time_seconds`. */
export const EVENT_BUCKETS = [0.01, 0.03, 0.1, 0.3, 1, 3, 10, 30, 100];
/** `subscription_total_time_seconds`, `subscription_db_execution_time_seconds`, `postgres_pool_wait_time`. */
export const FINE_BUCKETS = [0.000001, 0.0001, 0.01, 0.1, 0.3, 1, 3, 10, 30, 100];
/** `event_fetch_time_per_batch_seconds`. */
export const FETCH_BUCKETS = [0.0001, 0.0003, 0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1, 3, 10];
