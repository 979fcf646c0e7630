/**
 * What every backend (a kind of source database) provides, so that nothing outside
 * `backends/` depends on one dialect: reading its configuration, introspection into
 * the neutral catalog (`metadata/catalog.ts`), IR -> statement translation, execution
 * on the front thread, the administration side the metadata actor uses (run_sql, the
 * deprecated DML operations, transactions), and its database errors as API errors.
 * Modules get a backend from `registry.ts` by the source's kind, or receive it.
 */
import type { DatabaseCatalog, QualifiedName } from '../catalog/types.js';
import type { BoolExp } from '../ir/boolexp.js';
import type { MutationField } from '../ir/mutation.js';
import type { RootField } from '../ir/select.js';
import type { ResolvedTable } from '../metadata/resolve/types.js';
import { badRequest, type ApiError } from '../errors/admin.js';
import type { ParamSource, Rendered } from '../sql/fragment.js';
import type { JsonObject, ObjectReader } from '../util/decode.js';
import type { EventOutcome, InvocationRecord } from '../db/event-invocations.js';
import type { EventTriggerInstall } from '../metadata/event-triggers.js';

export interface Backend {
  /** The backend's name (`postgres`); several metadata source kinds may share one (citus). */
  readonly kind: string;
  readonly capabilities: Capabilities;

  /** Validates a source's `configuration` and returns it in stored form (defaults filled in). */
  decodeConfiguration(v: unknown, path: string): JsonObject;
  /** Whether compiled statements of this source run as named prepared statements. */
  usesPreparedStatements(configuration: JsonObject): boolean;

  /** The statement of one query root field; its single row's single column is the field's JSON. */
  translateRootField(field: Exclude<RootField, { kind: 'typename' }>, options: TranslateOptions): TranslatedField;
  /**
   * Subscriptions (optional; a backend without it runs each cohort's statement on its own):
   * a query root field as a live query. Its statement binds the query's own literals
   * (synthetic variables), and `multiplexed` answers a batch of cohorts in one statement (see
   * `TranslatedLiveField`).
   */
  translateLiveField?(field: Exclude<RootField, { kind: 'typename' }>, options: TranslateOptions): TranslatedLiveField;
  /** The statements of one mutation root field, run in order; `final` ones answer the field. */
  translateMutation(field: MutationField, options: TranslateOptions): TranslatedMutation;

  /**
   * A connection pool for running compiled statements (the front thread; the multiplexer
   * actors with their own `limits`, else the source's pool settings).
   */
  connect(configuration: JsonObject, limits?: PoolLimits): SourceConnection;
  /** A connection pool for the metadata actor: introspection, run_sql, transactions. */
  connectAdmin(configuration: JsonObject): AdminConnection;
  /**
   * Change capture (optional; without it every live query of the source is polled): listens
   * for the writes to the source's tables that `AdminConnection.syncChangeCapture` set up.
   */
  listenChanges?(configuration: JsonObject, handlers: ChangeFeedHandlers): ChangeFeed;

  /**
   * Event triggers (optional): the log the trigger-delivery actor leases events from, with a
   * pool of at most `maxConnections`, and the statements the event commands run in the
   * request's transaction.
   */
  connectEvents?(configuration: JsonObject, maxConnections: number): EventStore;
  eventStatements?: EventStatements;

  /** The deprecated `/v1/query` and `/v2/query` data operations as one statement (run as admin). */
  dmlStatement(kind: DmlKind, request: DmlRequest): Rendered;

  /** A database error met while running a statement (a query, a mutation, a DML operation), as the API reports it. */
  dataError(e: unknown, statement: string, path?: string): ApiError;
  /** Whether `e` is a mutation's permission check failing inside its statement (see `translateMutation`). */
  isCheckViolation(e: unknown): boolean;
  /** A database error of this backend met by an administration request, or null when `e` is not one. */
  adminError(e: unknown): ApiError | null;
}

/**
 * What a backend supports, for schema generation to offer (published with each source in the
 * snapshot): without one, its root fields and arguments are left out. PostgreSQL supports all of it.
 */
export interface Capabilities {
  /** insert/update/delete root fields. */
  mutations: boolean;
  aggregates: boolean;
  distinctOn: boolean;
  returning: boolean;
  nestedInserts: boolean;
  /** How inserts upsert: PostgreSQL's `on_conflict` (a constraint), SQL Server's `if_matched` (columns), or not at all. */
  upsert: 'on_conflict' | 'if_matched' | false;
  eventTriggers: boolean;
  subscriptions: boolean;
  streaming: boolean;
}

/** Everything: a source published without capabilities (an older snapshot) has PostgreSQL's. */
export const ALL_CAPABILITIES: Capabilities = Object.freeze({
  mutations: true,
  aggregates: true,
  distinctOn: true,
  returning: true,
  nestedInserts: true,
  upsert: 'on_conflict',
  eventTriggers: true,
  subscriptions: true,
  streaming: true,
});

/** Queries only: selects and aggregates, nothing that writes or listens (what SQL Server and BigQuery each add to). */
export const QUERY_CAPABILITIES: Capabilities = Object.freeze({
  ...ALL_CAPABILITIES,
  mutations: false,
  distinctOn: false,
  returning: false,
  nestedInserts: false,
  upsert: false,
  eventTriggers: false,
  subscriptions: false,
  streaming: false,
});

/** The error for what a backend cannot do the way a request asks, naming the backend. */
export const notSupportedBy = (backend: string) => (what: string) => badRequest('not-supported', `${what} is not supported by the ${backend} backend`);

/** How SQL is written, beyond the IR (which carries every type, join and permission it needs). */
export interface TranslateOptions {
  /** Output bigint, numeric and double precision as JSON strings. */
  stringifyNumeric: boolean;
}

export interface TranslatedField extends Rendered {
  /** Session variables the statement reads (a request must carry them). */
  sessionVariables: string[];
  /** Whether a function gets the whole session as its argument (so it may read any session variable). */
  wholeSession: boolean;
}

/**
 * A live query's field. `multiplexed` has one parameter, the cohorts' values as an array of
 * JSON texts `{"query": {<variables>}, "session": {<session variables>}, "synthetic":
 * [<lifted literals, in the order of the statement's literal parameters>]}` (see
 * `execute/cohort.ts`), and returns a row per cohort: `result_id`, the cohort's 1-based
 * position in that array, and `result`, the field's JSON text (NULL: no row, `null`).
 * A streaming field (`stream`) also reads `"cursor"` (the cohort's cursor value, text) and
 * returns `cursor`, the cursor's new value (NULL: no rows, the cursor stays).
 */
export interface TranslatedLiveField extends TranslatedField {
  multiplexed: string;
  /** A streaming field: where each cohort's first cursor value comes from. */
  stream?: StreamStep;
}

/** A streaming subscription's step: each cohort's first cursor value (`execute/cohort.ts`). */
export interface StreamStep {
  initial: ParamSource;
}

export interface TranslatedMutation {
  ops: (Rendered & { final: boolean })[];
  sessionVariables: string[];
  wholeSession: boolean;
}

/** Runs a statement: its text, bound values, and a prepared statement name (null: unnamed). */
export type RunStatement = (text: string, values: unknown[], statement: string | null) => Promise<Record<string, string | null>[]>;

/** Pool settings that override a source's own (`SERVICE_GRAPHQL_LIVE_QUERIES_*` for the multiplexers' pools). */
export interface PoolLimits {
  maxConnections: number;
  idleTimeoutSeconds: number;
}

/** A source's connection pool on the front thread. */
export interface SourceConnection {
  /** Runs one statement whose single row's first column is JSON; that JSON's text, or 'null'. */
  json(text: string, values: unknown[], statement: string | null): Promise<string>;
  /** Runs one statement on its own (autocommit); every value as text. */
  rows: RunStatement;
  /**
   * Runs `fn` in a transaction (committed when it returns, rolled back when it throws);
   * `sessionJson`: the session variables the source's event triggers record.
   */
  transaction<T>(fn: (run: RunStatement) => Promise<T>, sessionJson?: string): Promise<T>;
  /** The database's plan of a statement, one line per entry. */
  explain(text: string, values: unknown[]): Promise<string[]>;
  close(): Promise<void>;
}

export type RunSqlResponse = { result_type: 'TuplesOk'; result: (string | null)[][] } | { result_type: 'CommandOk'; result: null };

/** Rows of the tracked enum tables (`is_enum`) by `schema.name`. */
export type EnumValues = Record<string, { value: string; comment: string | null }[]>;

/** A source's connection pool in the metadata actor. */
export interface AdminConnection {
  introspect(): Promise<DatabaseCatalog>;
  loadEnumValues(catalog: DatabaseCatalog, tables: QualifiedName[]): Promise<EnumValues>;
  /**
   * Opens a transaction that an administration request's commands share until commit or
   * rollback; `configuration` is the source's as the request sees it (its isolation level).
   */
  begin(configuration: JsonObject, readOnly: boolean): Promise<AdminTransaction>;
  /**
   * Change capture (with `Backend.listenChanges`): makes the writes to `tables` (`source`'s
   * tracked tables) notify, and stops it for the other tables of the database except `keep`
   * (tracked by another source, maybe on the same database). Never fails: a table it cannot
   * capture is logged, and its live queries are polled.
   */
  syncChangeCapture?(source: string, tables: readonly QualifiedName[], keep: readonly QualifiedName[]): Promise<void>;
  /**
   * Event triggers (with `Backend.connectEvents`): makes the database triggers those of
   * `triggers`, except the ones named in `keep` (another source's); `recreate` installs every
   * one again. Returns why a trigger could not be installed or removed, by database trigger name.
   */
  syncEventTriggers?(triggers: readonly EventTriggerInstall[], keep: ReadonlySet<string>, recreate: boolean): Promise<Map<string, EventTriggerSyncFailure>>;
  close(): Promise<void>;
}

/** A database trigger that could not be installed or removed. */
export interface EventTriggerSyncFailure {
  table: QualifiedName;
  error: string;
  /** Its table stayed locked by another session for every try (bounded waits). */
  lockTimeout: boolean;
}

/** A trigger whose events the actor may lease, and how long a lease holds (past it, another instance may take the event). */
export interface LeaseSpec {
  name: string;
  leaseSeconds: number;
  /** At most this many of its events leased at once, by all instances together; 0: no cap. */
  maxConcurrent: number;
}

/** A leased event. `payload`: the stored JSON text `{op, data, session_variables, trace_context}`. */
export interface EventRecord {
  id: string;
  trigger: string;
  table: QualifiedName;
  payload: string;
  /** Attempts made before this one. */
  tries: number;
  createdAt: string;
}

/** A delivery attempt of a leased event, to be recorded. */
export interface FinishedAttempt {
  event: EventRecord;
  invocation: InvocationRecord;
  outcome: EventOutcome;
}

/** A source's event log as the trigger-delivery actor uses it. */
export interface EventStore {
  /** Whether the log exists (no event trigger was ever installed otherwise). */
  ready(): Promise<boolean>;
  /** Leases up to `limit` due events of these triggers for `instance`. */
  fetch(triggers: readonly LeaseSpec[], limit: number, instance: string): Promise<EventRecord[]>;
  /** Records the attempts and moves each event on (unless its lease was lost meanwhile), in one statement. */
  finish(attempts: readonly FinishedAttempt[], instance: string): Promise<void>;
  /** Gives back the leases of `instance` (graceful shutdown). */
  release(instance: string): Promise<void>;
  /** One batch of a log cleanup (`EventStatements.cleanup`). */
  cleanupBatch(trigger: string, olderThanHours: number, batchSize: number, invocations: boolean): Promise<{ events: number; invocations: number }>;
  /** Removes a batch of delivered (or archived) events older than the retention; how many went. */
  removeDelivered(olderThanHours: number, batchSize: number): Promise<number>;
  /** Calls `wake` on each new event (and after (re)connecting). */
  listen(wake: () => void): { close(): Promise<void> };
  close(): Promise<void>;
}

/**
 * Parameterised statements of the event commands. `invoke` ($1 schema, $2 table, $3 trigger,
 * $4 payload JSON) returns `id`; `redeliver` ($1 event id) returns a row when the event
 * exists; `cleanup` ($1 trigger, $2 hours, $3 batch size, $4 invocation logs too) returns
 * `events`, `invocations`; `hasLog` returns `ready`.
 */
export interface EventStatements {
  invoke: string;
  redeliver: string;
  cleanup: string;
  hasLog: string;
}

/** What a change feed reports (`Backend.listenChanges`). */
export interface ChangeFeedHandlers {
  /**
   * The tables whose writes are reported from now on: after (re)connecting and after each
   * `refresh`. Writes before it may have been missed. `types`: names that are only types (no
   * table, view or function): a query mentioning them reads no rows through them.
   */
  captured(tables: QualifiedName[], types: QualifiedName[]): void;
  /** A write to `table` was committed. */
  changed(table: QualifiedName): void;
  /** The feed is down (reconnecting): nothing is reported until the next `captured`. */
  lost(): void;
}

export interface ChangeFeed {
  /** Reads again which tables are captured (after a metadata change), then calls `captured`. */
  refresh(): void;
  close(): Promise<void>;
}

/**
 * One administration request's transaction on a source. A failed step leaves the
 * earlier ones in effect (the steps of a bulk are separate; the request rolls back
 * as a whole when it fails).
 */
export interface AdminTransaction {
  /** `run_sql`: raw SQL, answered in the well-known engine's row format. */
  runSql(sql: string): Promise<RunSqlResponse>;
  /** Whether `sql` may change the catalog (so that it is read again afterwards). */
  mayChangeCatalog(sql: string): boolean;
  /** One parameterised statement (the DML operations); rows as the driver returns them. */
  query(text: string, values: unknown[]): Promise<Record<string, unknown>[]>;
  /** The catalog as this transaction sees it (uncommitted DDL included). */
  introspect(): Promise<DatabaseCatalog>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
}

export type DmlKind = 'select' | 'count' | 'insert' | 'update' | 'delete';

/** A DML operation's table, its arguments, and how a `where` argument reads (checked against the metadata). */
export interface DmlRequest {
  table: ResolvedTable;
  args: ObjectReader;
  /** A `where` on `table` (the request's unless given: a relationship's target in a nested select). */
  where(v: unknown, path: string, table?: ResolvedTable): BoolExp;
  /** Another tracked table of the source (the target of a relationship a select nests). */
  lookup(name: QualifiedName): ResolvedTable | undefined;
}
