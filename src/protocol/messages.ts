/** Every message an actor accepts or emits. */
import type { MutationField } from '../ir/mutation.js';
import type { RootField } from '../ir/select.js';
import type { Plan, PlanStep, StepRun } from './plan.js';
import type { GraphQLErrorBody } from '../errors/request.js';
import type { EventsView, MultiplexerView, PublishedSnapshot } from './snapshot.js';
import type { PoolLimits } from '../backends/faces/runtime.js';
import type { CohortValues, LiveQuery, LiveQueryCounts, LiveQueryOptions } from './live.js';
import type { MetricsJson, MetricsRequest, MetricsSettings } from './metrics.js';

/** Which administration surface a request came in on (they differ in names and shapes). */
export type AdminEndpoint = 'v1/metadata' | 'v1/query' | 'v2/query';

/** The raw request body travels as the request's attachment (transferred, never copied); the actor parses it so the front thread never does. */
export interface AdminRequest {
  type: 'admin';
  endpoint: AdminEndpoint;
  /**
   * The caller's session variables (its `x-service-*` headers): what its writes' event triggers
   * record. `x-service-role` is admin, or on `/v1/query` the role whose data operations run with its permissions.
   */
  session: Record<string, string>;
}

/** The role an administration request runs as (its session says; the front thread always sets it). */
export const adminRequestRole = (session: Readonly<Record<string, string>>): string => session['x-service-role'] ?? 'admin';

export interface AdminResponse {
  status: number;
  /** JSON text. */
  body: string;
}

export interface HealthRequest {
  type: 'health';
}

export interface HealthResponse {
  ok: boolean;
  message: string;
  /** Some metadata object is inconsistent (`/healthz` warns, or fails with `strict=true`). */
  inconsistent?: boolean;
}

/** `/healthz/sources`: each source's health. */
export interface SourcesHealthRequest {
  type: 'sources-health';
}

/** One source's health, as the well-known engine reports it. */
export interface SourceHealth {
  status: 'OK' | 'ERROR' | 'TIMEOUT';
  error: { message: string; extra?: unknown } | null;
  timestamp: string;
}

/** `POST /v1alpha1/pg_dump` (the `pgdump` API); the body travels as the attachment. */
export interface PgDumpRequest {
  type: 'pg-dump';
}

/** `pg_dump`'s output as text, or an admin error as JSON. */
export interface PgDumpResponse extends AdminResponse {
  contentType: string;
}

export type MetadataActorRequest = AdminRequest | HealthRequest | SourcesHealthRequest | PgDumpRequest;

export interface MetadataActorReplies {
  admin: AdminResponse;
  health: HealthResponse;
  'sources-health': Record<string, SourceHealth>;
  'pg-dump': PgDumpResponse;
}

/**
 * A new snapshot; its update's bytes (`PublishedSnapshot.update`) travel as the event's attachment.
 * `staged`: the snapshot of a change the store is writing, sent ahead so that the schema builder
 * takes it in meanwhile; it is in effect only once published (`snapshot`, same generation), and
 * `unstaged` says it never will be (the change failed).
 */
export type MetadataActorEvent = { type: 'snapshot' | 'staged'; snapshot: Omit<PublishedSnapshot, 'update'> } | { type: 'unstaged' };

/** The snapshot updates from the last whole one to the current one (`PublishedSnapshot.update`, in shared memory). */
export interface SnapshotChain {
  generations: number[];
  updates: SharedArrayBuffer[];
}

/**
 * What the schema builder is asked: bring its model up to a snapshot and, unless only that,
 * compile a request (analysis, then its backends' compiler pools, which it owns); or take in a
 * staged snapshot (`update`, following the chain) ahead of its publication, or drop the one it
 * took in. Its answer to `compile` is a `CompileAnswer` (msgpack-encoded).
 */
export type SchemaBuilderTask =
  | { kind: 'follow'; generation: number; chain: SnapshotChain }
  | ({ kind: 'compile'; generation: number; chain: SnapshotChain } & AnalyzeRequest)
  | { kind: 'stage'; chain: SnapshotChain; update: SharedArrayBuffer }
  | { kind: 'unstage' };

export interface AnalyzeRequest {
  role: string;
  /** The request may use `backend_only` mutation permissions. */
  backendOnly: boolean;
  query: string;
  operationName: string | null;
  variables: Record<string, unknown>;
  /** Check the document against the allow-list (enabled, and the role is not admin). */
  allowlist: boolean;
}

/** A field for a backend's compiler pool to translate into statements. */
export type FieldToTranslate =
  | { kind: 'query'; root: Exclude<RootField, { kind: 'typename' }> }
  /** `errorPath`: the field's JSON path in the request, for errors; `list`: the answer is a list (update_many). */
  | { kind: 'mutation'; mutation: MutationField; errorPath: string; list: boolean };

/** A plan step as analysis leaves it: constant JSON, or a field still to translate. */
export type AnalyzedRun = Extract<StepRun, { kind: 'constant' | 'remote' | 'action' }> | { kind: 'translate'; source: string; sourceKind: string; prepared: boolean; field: FieldToTranslate };

export type AnalyzedStep = Omit<PlanStep, 'run'> & { run: AnalyzedRun };

/** A plan whose statements are not written yet (their session variables neither). */
export interface AnalyzedPlan extends Omit<Plan, 'steps' | 'sessionVariables' | 'wholeSession'> {
  steps: AnalyzedStep[];
}

/**
 * `holds`: how long the same request fails the same way, whatever its variables: `allowlist`,
 * the allow-list refused the document (until the allow-list changes); `schema`, the document
 * does not hold for the role's schema (until the next snapshot). Absent: only this request.
 */
export interface CompileFailure {
  ok: false;
  errors: GraphQLErrorBody[];
  holds?: 'allowlist' | 'schema';
}

/** A backend compiler pool's task: one field of a source of that backend. */
export interface TranslateTask {
  sourceKind: string;
  /** Name statements for preparing (the source prepares statements). */
  prepared: boolean;
  source: string;
  field: FieldToTranslate;
  /** A subscription's field: written as a live query (literals lifted, multiplexed when the backend can). */
  live: boolean;
}

/** A translated field: its step, and the session variables its statements read. */
export interface TranslateAnswer {
  run: Extract<StepRun, { kind: 'sql' | 'mutation' }>;
  sessionVariables: string[];
  wholeSession: boolean;
}

/** What compiling a request gives: a plan, or the request's errors. */
export type CompileAnswer = { ok: true; plan: Plan } | CompileFailure;

/** Settings every backend compiler thread starts with (piscina `workerData`). */
export interface CompilerOptions {
  stringifyNumericTypes: boolean;
}

/** The schema builder thread's `workerData`: its compiler pools' settings, and how long one field's translation may take. */
export interface SchemaBuilderBoot {
  compiler: CompilerOptions;
  translateTimeoutMs: number;
}

/** A compiler thread's `workerData`: the settings and the source kind whose backend its pool translates for. */
export interface CompilerBootData extends CompilerOptions {
  sourceKind: string;
}

/** What a multiplexer actor runs: its live queries' options, and its own pools' settings (`SERVICE_GRAPHQL_LIVE_QUERIES_*`). */
export interface MultiplexerBootData {
  logLevel: import('../log.js').LogLevel;
  live: LiveQueryOptions & { changeCapture: boolean };
  pools: PoolLimits;
  metrics?: MetricsSettings;
  /** `SERVICE_GRAPHQL_ENABLE_QUERY_TRACING`: the polls' statement spans carry their SQL. */
  queryTracing: boolean;
}

/** A subscriber given to a multiplexer: the front thread's id for it, and its cohort values. */
export interface MultiplexedSubscriber {
  id: number;
  values: (CohortValues | null)[];
}

/**
 * One-way messages to a multiplexer actor (`Actor.tell`): the sources as each snapshot leaves
 * them, subscribers of a live query (a batch of them when a restarted actor is given its
 * subscribers again), subscribers gone.
 */
export type MultiplexerMessage =
  | { type: 'sources'; view: MultiplexerView }
  /** The query's statements come with its first subscriber on the actor; later ones name its key. */
  | { type: 'subscribe'; query: LiveQuery | { key: string }; subscribers: MultiplexedSubscriber[] }
  | { type: 'unsubscribe'; ids: number[] };

export type MultiplexerRequest = { type: 'counts' } | MetricsRequest;

export interface MultiplexerReplies {
  counts: LiveQueryCounts;
  metrics: MetricsJson;
}

/** One result for some of a multiplexer's subscribers (`Subscriber`'s arguments). */
export interface Delivery {
  ids: number[];
  text: string;
  hash: string | null;
  values: (CohortValues | null)[] | null;
}

/** The results a multiplexer's refetches produced, a batch per turn of its event loop. */
export type MultiplexerEvent = { type: 'deliveries'; deliveries: Delivery[] };

/** What the trigger-delivery actor runs with (`SERVICE_GRAPHQL_EVENTS_*`). */
export interface EventsBootData {
  logLevel: import('../log.js').LogLevel;
  httpPoolSize: number;
  fetchBatchSize: number;
  fetchIntervalMs: number;
  retentionHours: number;
  /** Deliveries of one trigger at once across instances (`SERVICE_GRAPHQL_EVENTS_MAX_CONCURRENT_PER_TRIGGER`); 0: no cap. */
  maxConcurrentPerTrigger: number;
  /** The metadata database (cron and one-off scheduled events live there). */
  catalogUrl: string;
  /** Asynchronous actions: poll interval (0: not processed), calls leased per poll, calls in flight. */
  asyncActions: { fetchIntervalMs: number; batchSize: number; concurrency: number };
  metrics?: MetricsSettings;
}

/** One-way message to the trigger-delivery actor: the triggers and sources as each snapshot leaves them. */
export type EventsMessage = { type: 'triggers'; view: EventsView };

export type EventsRequest =
  | { type: 'status' }
  /** An asynchronous action's call to store (answered with its id). */
  | { type: 'action-enqueue'; action: string; input: unknown; session: Record<string, string>; headers: Record<string, string>; requestQuery: string }
  /** An asynchronous action's call, if `session` made it. */
  | { type: 'action-result'; id: string; action: string; session: Record<string, string> }
  | MetricsRequest;

export interface EventsReplies {
  status: { inFlight: number; delivered: number; failed: number };
  'action-enqueue': string;
  'action-result': ActionResult | null;
  metrics: MetricsJson;
}

/** A stored asynchronous call as the result field reads it (`action-result`). */
export interface ActionResult {
  id: string;
  created_at: string;
  errors: unknown;
  output: unknown;
}
