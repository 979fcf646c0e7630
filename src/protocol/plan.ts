/**
 * A compiled GraphQL operation: what the front thread needs to answer it without the
 * schema. A plan is a graph of steps (one per root field today), the parameters to
 * bind, and how to check the request's variables.
 */
import type { ParamSource } from '../sql/fragment.js';
import type { ActionHandler } from '../metadata/actions.js';

/**
 * One unit of work. `id` is the step's index in `Plan.steps`, and a step depends only on
 * steps before it, so the array order is an order the steps may run in.
 */
export interface PlanStep {
  id: number;
  /** Steps that must finish first: a join's parent, the previous field of a mutation. */
  dependsOn: number[];
  run: StepRun;
  output: StepOutput;
}

/** What a step does; each gives JSON text. */
export type StepRun =
  /** JSON text known at compile time (`__typename`, introspection). */
  | { kind: 'constant'; json: string }
  /** One statement returning at most one row whose first column is the JSON text. */
  | {
      kind: 'sql';
      source: string;
      text: string;
      params: ParamSource[];
      /** Name of the prepared statement (a hash of the text), when the source prepares statements. */
      statement: string | null;
      /**
       * A subscription's field on a backend that multiplexes live queries: the statement
       * answering a batch of cohorts (`TranslatedLiveField` in backends/backend.ts). Absent,
       * each cohort runs `text` on its own.
       */
      multiplexed?: { text: string; statement: string | null };
      /**
       * A streaming subscription's field: each cohort's first cursor value. Its statements
       * read the cohort's cursor (`ParamSource` `cursor`) and the multiplexed one returns the
       * new cursor value beside each result.
       */
      stream?: { initial: ParamSource };
    }
  /**
   * One mutation field: statements run in order inside the request's transaction.
   * Each returns rows; a false `__check` column means a permission check failed. The
   * `root` column of the `final` statements is the field's JSON (several: a list).
   */
  | RemoteRun
  | ActionRun
  | {
      kind: 'mutation';
      source: string;
      /** The field's JSON path in the request (`$.selectionSet.insert_author`), for errors. */
      errorPath: string;
      ops: MutationOp[];
      list: boolean;
      check: 'insert' | 'update' | 'delete';
    };

/**
 * A remote schema's field forwarded to its server (compiler/remote.ts): the query as the remote
 * knows it (its own type and field names), the request variables it reads, the session
 * variables preset arguments read, and how to put customized type names back into `__typename`.
 */
export interface RemoteRun {
  kind: 'remote';
  remote: string;
  operation: 'query' | 'mutation';
  query: string;
  /** Request variables passed on (declared in `query` under the same names). */
  variables: string[];
  /** Variables of `query` set from the session (spec "Remote schema" permission rule 3). */
  sessionPresets: SessionPreset[];
  /** The response key of the field in the remote's `data`. */
  field: string;
  /** Remote type name -> customized name, and where `__typename` values are in the answer; null when no name differs. */
  typenames: { names: Record<string, string>; tree: TypenameTree } | null;
  /**
   * A remote relationship's step (a join: one call for every key tuple of the response): the
   * field's text split where it reads a key (`parts`, and between them which `lhs` column each
   * slot is), each column's remote type, the variable declarations of `query`'s operation,
   * and the path from each tuple's field down to the relationship's value.
   */
  batch?: { declarations: string; parts: string[]; slots: number[]; keyTypes: string[]; path: string[] };
}

/**
 * An action's field (compiler/action.ts, execute/action.ts): `call` POSTs the handler and
 * answers its output shaped by the selection; `enqueue` stores an asynchronous call and answers
 * its id; `result` reads an asynchronous call's result by id (`input.id`).
 */
export interface ActionRun {
  kind: 'action';
  mode: 'call' | 'enqueue' | 'result';
  action: string;
  /** The handler as configured (templates, headers, transforms): the executor reads the environment. */
  handler: ActionHandler;
  /** The arguments as written, `{"$variable": name}` where a request variable goes. */
  input: Record<string, unknown>;
  /** The client's query text (`request_query` of the handler's body). */
  requestQuery: string;
  /** The selection on the output (null: a scalar or enum output, or `enqueue`). */
  output: ActionOutputType;
  /** The field's JSON path in the request, for errors. */
  errorPath: string;
}

/** The output's type as the selection reads it: checked and projected by the executor. */
export type ActionOutputType =
  | { kind: 'non_null'; of: ActionOutputType }
  | { kind: 'list'; of: ActionOutputType }
  | { kind: 'scalar'; name: string }
  | { kind: 'enum'; name: string; values: string[] }
  | {
      kind: 'object';
      name: string;
      /** Every field the type has: a handler answering another is wrong. */
      known: string[];
      /** Response keys in order: a field of the handler's object (`field`), or `__typename`. */
      selection: { key: string; field: string | null; type: ActionOutputType | null }[];
    };

export interface SessionPreset {
  variable: string;
  /** Lower-case session variable name. */
  session: string;
  /** The remote's named type of the value (`Int`, `String`, a custom scalar), and whether it is a list. */
  scalar: string;
  list: boolean;
}

/** Response keys holding `__typename` at this level, and the sub-trees by response key (lists walked). */
export interface TypenameTree {
  keys?: string[];
  fields?: Record<string, TypenameTree>;
}

/** Where a step's JSON goes. */
export type StepOutput =
  /** Under `data`, at these response keys (`["ns", "authors"]` for a field inside a namespace). */
  | { kind: 'response'; path: string[] }
  /** Into the objects of another step's result (a remote relationship, a cross-source join). */
  | { kind: 'join'; join: StepJoin };

/**
 * How a step's results attach to its parent's rows. The executor collects the distinct
 * key tuples from the parent's objects, passes them to the step as one JSON array of
 * `{<child key>: value}` objects (`ParamSource` `join-keys` for SQL), and expects back a
 * JSON array with one value per tuple, in the same order. A parent object with a null key
 * gets null.
 */
export interface StepJoin {
  /** The parent step's id (also in `dependsOn`). */
  parent: number;
  /** Keys from the parent's JSON down to the objects that get the field; lists on the way are walked element by element. */
  at: string[];
  /** The response key the step's value is written under, in each of those objects. */
  field: string;
  /** Parent object keys holding the join values → the child's key argument names. */
  keys: { parent: string; child: string }[];
  /** Parent object keys selected only for the join, removed from the response once joined. */
  hidden: string[];
}

export interface MutationOp {
  text: string;
  params: ParamSource[];
  statement: string | null;
  final: boolean;
}

/** How a request variable is checked and coerced on the front thread. */
export interface VariableSpec {
  name: string;
  /** GraphQL type text: `Int!`, `[uuid!]`, `author_bool_exp`. */
  type: string;
  hasDefault: boolean;
  defaultValue: unknown;
}

/** Variables whose value changes the SQL (compiled in): their values are part of the cache key. */
export interface ShapeVariable {
  name: string;
  /** `value`: the whole value is compiled in; `nullness`: only whether it is null. */
  mode: 'value' | 'nullness';
}

export interface Plan {
  operation: 'query' | 'mutation' | 'subscription';
  steps: PlanStep[];
  variables: VariableSpec[];
  shape: ShapeVariable[];
  /** Session variables the SQL reads; a request without one of them is refused. */
  sessionVariables: string[];
  /** A function gets the whole session as its argument: it may read any session variable (a live query's cohort keeps them all). */
  wholeSession?: true;
  /** The well-known engine's `parameterized_query_hash` (compiler/query-hash.ts): http-log lines and query tags carry it. */
  queryHash: string;
  /** The operation's depth and node count (compiler/operation-size.ts), compared with the API limits per request. */
  size: { depth: number; nodes: number };
  /** What the plan was compiled from: a metadata change that touches none of it leaves the plan valid. */
  reads: PlanReads;
  /** A query's `@cached` (compiler/cached-directive.ts): its answer is kept in the response cache. */
  cache?: PlanCache;
}

/** How a query's answer is cached: its key is `document` with the request's values (cache/key.ts). */
export interface PlanCache {
  /** Seconds an answer is kept (capped by `SERVICE_GRAPHQL_CACHE_MAX_ENTRY_TTL`). */
  ttl: number;
  /** Fetch again and store, even when an answer is cached. */
  refresh: boolean;
  /** A hash of the document as printed (whitespace-insensitive), the directive left out. */
  document: string;
  /**
   * A remote schema's or an action's field: the call carries every session variable and, when
   * the remote or action forwards them, the client's headers, so the key holds all of them.
   */
  caller?: true;
}

/** The metadata a plan depends on (compare `MetadataChanges`). */
export interface PlanReads {
  /** Introspection reads the whole role schema. */
  everything: boolean;
  /** Sources whose settings (naming, customization, connection) shaped the plan. */
  sources: string[];
  /** Tables (`source \0 schema.name`) whose metadata shaped the plan. */
  tables: string[];
}

