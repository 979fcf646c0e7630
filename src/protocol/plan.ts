/**
 * A compiled GraphQL operation: what the front thread needs to answer it without
 * the schema: one SQL statement per root field (or a constant JSON text), the
 * parameters to bind, and how to check the request's variables.
 */
import type { ParamSource } from '../sql/fragment.js';

export type PlanStep =
  /** JSON text known at compile time (`__typename`, introspection). */
  | { kind: 'static'; alias: string; json: string }
  | {
      kind: 'sql';
      alias: string;
      source: string;
      text: string;
      params: ParamSource[];
      /** Name of the prepared statement (a hash of the text), when the source prepares statements. */
      statement: string | null;
    }
  /**
   * One mutation field: statements run in order inside the request's transaction.
   * Each returns rows; a false `__check` column means a permission check failed. The
   * `root` column of the `final` statements is the field's JSON (several: a list).
   */
  | { kind: 'mutation'; alias: string; source: string; path: string; ops: MutationOp[]; list: boolean; check: 'insert' | 'update' | 'delete' };

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
  /** What the plan was compiled from: a metadata change that touches none of it leaves the plan valid. */
  reads: PlanReads;
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

export interface GraphQLErrorBody {
  message: string;
  extensions: { path: string; code: string; internal?: unknown };
}
