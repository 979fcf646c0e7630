/** A backend's admin face, with the types it names (`backends/backend.ts` puts the faces together). */
import type { DatabaseCatalog, QualifiedName } from '../../catalog/types.js';
import type { BoolExp } from '../../ir/boolexp.js';
import type { ResolvedTable } from '../../metadata/resolve/types.js';
import type { ApiError } from '../../errors/admin.js';
import type { Rendered } from '../../sql/fragment.js';
import type { JsonObject, ObjectReader } from '../../util/decode.js';
import type { EventTriggerInstall } from '../../metadata/event-triggers.js';
import type { DmlPermissions } from '../../metadata/dml-permissions.js';

/** What the metadata actor needs of a backend: configuration, what it supports, introspection and run_sql through its admin connection, the deprecated DML statements, the event commands' statements, its errors. */
export interface AdminFace {
  /** The backend's name (`postgres`); several metadata source kinds may share one (citus). */
  readonly kind: string;
  readonly capabilities: Capabilities;
  readonly profile: BackendProfile;

  /** Validates a source's `configuration` and returns it in stored form (defaults filled in). */
  decodeConfiguration(v: unknown, path: string): JsonObject;
  /** Whether compiled statements of this source run as named prepared statements. */
  usesPreparedStatements(configuration: JsonObject): boolean;
  /** A connection pool for the metadata actor: introspection, run_sql, transactions. */
  connectAdmin(configuration: JsonObject): AdminConnection;

  /** The deprecated `/v1/query` and `/v2/query` data operations as one statement, with the caller's permissions applied. */
  dmlStatement(kind: DmlKind, request: DmlRequest): DmlStatement;
  /** Event triggers (optional): the statements the event commands run in the request's transaction. */
  eventStatements?: EventStatements;
  /** A database error of this backend met by an administration request, or null when `e` is not one. */
  adminError(e: unknown): ApiError | null;
  /**
   * `pg_dump`'s output for `opts` on the source's database (`/v1alpha1/pg_dump`), PostgreSQL's
   * and Citus' only; an `ApiError` when it cannot be run or fails.
   */
  dumpDatabase?(configuration: JsonObject, opts: string[]): Promise<string>;
}

/** What a kind of source is, as data: the metadata layer and the schema read it (published with each source in the snapshot). */
export interface BackendProfile {
  /** Tables of this schema are named without it (root field `author`, not `dbo_author`): PostgreSQL's `public`, SQL Server's `dbo`; BigQuery always names the dataset (''). */
  defaultSchema: string;
  /** `trigger_on_replication`'s default for its event triggers (spec "Event trigger"). */
  triggerOnReplication: boolean;
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
   * `sessionJson`: the caller's session variables, which the source's event triggers record
   * for the rows the transaction writes (as `SourceConnection.transaction`'s).
   */
  begin(configuration: JsonObject, readOnly: boolean, sessionJson?: string): Promise<AdminTransaction>;
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

/** A database trigger that could not be installed or removed. */
export interface EventTriggerSyncFailure {
  table: QualifiedName;
  error: string;
  /** Its table stayed locked by another session for every try (bounded waits). */
  lockTimeout: boolean;
}

export type DmlKind = 'select' | 'count' | 'insert' | 'update' | 'delete';

/** A DML operation's table, its arguments, and how a `where` argument reads (checked against the metadata). */
export interface DmlRequest {
  table: ResolvedTable;
  args: ObjectReader;
  /** A `where` on `table` (the request's unless given: a relationship's target in a nested select), as the caller may use it. */
  where(v: unknown, path: string, table?: ResolvedTable): BoolExp;
  /** Another tracked table of the source (the target of a relationship a select nests). */
  lookup(name: QualifiedName): ResolvedTable | undefined;
  /** What the caller may do on the source's tables (admin: everything). */
  permissions: DmlPermissions;
}

/**
 * A DML operation's statement. It answers one row: `rows` (select), `count`, or `affected_rows`,
 * `returning` when asked for and `check` (whether every changed row passes the permission's check).
 */
export interface DmlStatement extends Rendered {
  /** The session variables it reads (the request must carry them). */
  sessionVariables: string[];
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
