/**
 * What the executor needs from a source: the same methods, with the same signatures, as
 * the PostgreSQL `QueryRunner` (`backends/pg/execute.ts`), so any backend's runner fits.
 */

/** Runs one statement; every value of every row as text. */
export type RunStatement = (text: string, values: unknown[], statement: string | null) => Promise<Record<string, string | null>[]>;

export interface SourceConnection {
  /** Runs one statement that returns at most one row whose first column is JSON; its text, or 'null'. */
  json(text: string, values: unknown[], statement: string | null): Promise<string>;
  /** Runs one statement on its own (autocommit). */
  rows(text: string, values: unknown[], statement: string | null): Promise<Record<string, string | null>[]>;
  /** Runs `fn` in a transaction (committed when it returns, rolled back when it throws). */
  transaction<T>(fn: (run: RunStatement) => Promise<T>): Promise<T>;
  explain(text: string, values: unknown[]): Promise<string[]>;
  close(): Promise<void>;
}

/** The connections of the sources plans run on, by source name (a `Map` will do). */
export interface SourceConnections {
  get(source: string): SourceConnection | undefined;
}
