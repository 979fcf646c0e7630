/**
 * What the front thread and the multiplexer actors tell each other of live queries
 * (messages.ts): a multiplexed query's identity and plan steps, a subscriber's cohort values,
 * the options and counts.
 */
import type { PlanStep } from './plan.js';

/** A live query's cohort values: what one subscriber's request gives a step's statement (`execute/cohort.ts`). */
export interface CohortValues {
  query: Record<string, unknown>;
  session: Record<string, string>;
  /** The step's literals lifted from the query, in the order of its literal parameters. */
  synthetic: string[];
  /** A streaming step: the cursor's current value (text), advanced after each batch delivered (`live/streams.ts`). */
  cursor?: string | null;
}

export interface LiveQuery {
  /** Role and statements (`liveQuery`): the multiplexed query's identity. */
  key: string;
  role: string;
  steps: PlanStep[];
  /** The tables the plan reads (`PlanReads.tables`): writes to them refetch it under change capture. */
  reads: readonly string[];
  /** The operation name of the request that started it: its `operation_name` metric label. */
  operationName: string | null;
  /** That request's parameterized query hash: the multiplexed statements' query tags carry it. */
  queryHash: string | null;
}

export interface LiveQueryOptions {
  /** `SERVICE_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_REFETCH_INTERVAL`. */
  intervalMs: number;
  /** `SERVICE_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_BATCH_SIZE`: cohorts per statement. */
  batchSize: number;
}

export interface LiveQueryCounts {
  queries: number;
  cohorts: number;
  subscribers: number;
}
