/** A backend's runtime face, with the types it names (`backends/backend.ts` puts the faces together). */
import type { QualifiedName } from '../../catalog/types.js';
import type { ApiError } from '../../errors/admin.js';
import type { JsonObject } from '../../util/decode.js';

/** What the threads that run statements need of a backend (the front thread, the multiplexer actors): connections, change capture, database errors as answers. */
export interface Runtime {
  /** The backend's name (`postgres`); several metadata source kinds may share one (citus). */
  readonly kind: string;

  /**
   * A connection pool for running compiled statements (the front thread; the multiplexer
   * actors with their own `limits`, else the source's pool settings); `meter`, when metrics are
   * on: told the pool's times (a backend without a pool of its own may ignore it).
   */
  connect(configuration: JsonObject, limits?: PoolLimits, meter?: PoolMeter): SourceConnection;
  /**
   * Change capture (optional; without it every live query of the source is polled): listens
   * for the writes to the source's tables that `AdminConnection.syncChangeCapture` set up.
   */
  listenChanges?(configuration: JsonObject, handlers: ChangeFeedHandlers): ChangeFeed;

  /** A database error met while running a statement (a query, a mutation, a DML operation), as the API reports it. */
  dataError(e: unknown, statement: string, path?: string): ApiError;
  /** Whether `e` is a mutation's permission check failing inside its statement (see `translateMutation`). */
  isCheckViolation(e: unknown): boolean;
}

/** Runs a statement: its text, bound values, and a prepared statement name (null: unnamed). */
export type RunStatement = (text: string, values: unknown[], statement: string | null) => Promise<Record<string, string | null>[]>;

/** Pool settings that override a source's own (`SERVICE_GRAPHQL_LIVE_QUERIES_*` for the multiplexers' pools). */
export interface PoolLimits {
  maxConnections: number;
  idleTimeoutSeconds: number;
}

/** What a pool tells of its times, in seconds (`service_postgres_pool_wait_time`, `service_postgres_connection_init_time`). */
export interface PoolMeter {
  /** A statement waited this long for a connection of the pool. */
  waited(seconds: number): void;
  /** A new connection took this long to be established and set up. */
  connected(seconds: number): void;
}

/** A request's time limit as its statements see it (execute/deadlines.ts). */
export interface StatementDeadline {
  readonly expired: boolean;
  /** Calls `cancel` when the deadline passes (at once if it has); the returned function stops watching. */
  onExpiry(cancel: () => void): () => void;
}

/**
 * A source's connection pool on the front thread. `deadline` (the request's time limit): a
 * backend that can cancels the statement on the server when it passes; one that cannot lets it
 * finish, unanswered.
 */
export interface SourceConnection {
  /** Runs one statement whose single row's first column is JSON; that JSON's text, or 'null'. */
  json(text: string, values: unknown[], statement: string | null, deadline?: StatementDeadline): Promise<string>;
  /** Runs one statement on its own (autocommit); every value as text. */
  rows(text: string, values: unknown[], statement: string | null, deadline?: StatementDeadline): Promise<Record<string, string | null>[]>;
  /**
   * Runs `fn` in a transaction (committed when it returns, rolled back when it throws);
   * `sessionJson`: the session variables the source's event triggers record; `traceJson`: the
   * trace context they record beside them (a traced mutation's).
   */
  transaction<T>(fn: (run: RunStatement) => Promise<T>, sessionJson?: string, traceJson?: string, deadline?: StatementDeadline): Promise<T>;
  /** The database's plan of a statement, one line per entry. */
  explain(text: string, values: unknown[]): Promise<string[]>;
  close(): Promise<void>;
  /** The connections its pool holds open now (`service_postgres_connections`); absent for a backend without a pool of its own. */
  openConnections?(): number;
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
