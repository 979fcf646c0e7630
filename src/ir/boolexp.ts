/**
 * Boolean expressions, backend-neutral: what a permission `filter`/`check` and a
 * GraphQL `where` argument both become. Values are literals, session variables or
 * columns; the SQL layer turns them into parameters and quoted identifiers. A node
 * carries everything its translation needs (column types, joins, functions, the
 * target's permission), so translating is a function of the IR alone.
 */
import type { CatalogFunction, CatalogType, QualifiedName } from '../catalog/types.js';
import type { Json } from '../util/decode.js';

/** A join from the current table's rows to a related table's rows. */
export interface Join {
  target: QualifiedName;
  /** [column of the current table, column of the target]. */
  mapping: [string, string][];
}

/** A computed field's function as a row's value: called with the row and, if it takes one, the session as JSON. */
export interface ComputedCall {
  fn: QualifiedName;
  returnType: CatalogType;
  /** Name of the row argument when it is not the function's first one (then it is passed by name), else null. */
  tableArgument: string | null;
  /** Name of the JSON session argument, if any. */
  sessionArgument: string | null;
}

/** `tableArgument`: the row argument's position (null: none, a BigQuery table function's arguments come from columns). */
export function computedCall(fn: CatalogFunction, tableArgument: number | null, sessionArgument: number | null): ComputedCall {
  return {
    fn: { schema: fn.schema, name: fn.name },
    returnType: fn.returnType,
    tableArgument: tableArgument === null || tableArgument === 0 ? null : (fn.args[tableArgument]?.name ?? null),
    sessionArgument: sessionArgument === null ? null : (fn.args[sessionArgument]?.name ?? null),
  };
}

export type BoolExp =
  | { kind: 'and'; items: BoolExp[] }
  | { kind: 'or'; items: BoolExp[] }
  | { kind: 'not'; item: BoolExp }
  /** `_exists`: rows of an unrelated table match `where` (columns in `where` refer to that table). */
  | { kind: 'exists'; table: QualifiedName; where: BoolExp }
  /**
   * A column of the current table compared with operators (all must hold). `visibleWhen`
   * (inherited roles, a request's `where`): the column reads as NULL where it does not hold,
   * as the selection shows it, so filtering cannot reveal a hidden value (spec rule 3).
   */
  | { kind: 'column'; column: string; type: CatalogType; ops: ComparisonOp[]; visibleWhen?: BoolExp }
  /**
   * Through a relationship of the current table: some related row matches `where`.
   * `permission`: the target's select filter for the role, also required of that row (a
   * request's `where`); absent where relationships are not permission-checked (permissions
   * themselves, admin operations).
   */
  | { kind: 'relationship'; relationship: string; join: Join; where: BoolExp; permission?: BoolExp }
  /** A scalar computed field compared like a column (`visibleWhen` as for a column). */
  | { kind: 'computed'; field: string; call: ComputedCall; ops: ComparisonOp[]; visibleWhen?: BoolExp }
  /** A computed field returning rows of `table`: some row it returns matches `where`. */
  | { kind: 'computed_rows'; field: string; call: ComputedCall; table: QualifiedName; where: BoolExp };

export type ComparisonOp = ValueComparison | CastComparison;

export interface ValueComparison {
  /** Canonical operator name: `_eq`, `_neq`, `_in`, `_is_null`, `_ceq`, `_contains`, `_st_d_within`, ... (`$neq`/`_ne` are normalised). */
  op: string;
  value: Value;
}

/**
 * `_cast` (`$cast`): the compared value cast to another type of the source, `to` (the
 * well-known engine's casts: binary JSON to text, geometry to geography and back), then compared
 * with `ops` as a value of that type.
 */
export interface CastComparison {
  op: '_cast';
  to: string;
  ops: ComparisonOp[];
}

export const isCast = (c: ComparisonOp): c is CastComparison => c.op === '_cast';

export type Value =
  /**
   * A literal from the metadata or the query; for `_in`/`_nin`/`_has_keys_*` an array.
   * `query`: written in the request where a variable could stand (a subscription binds it as a
   * synthetic variable, so requests differing only in such literals share one multiplexed
   * statement; also a `limit`, `offset` or json `path`).
   */
  | { kind: 'literal'; value: Json; query?: true }
  /** A session variable, lower-cased name (`x-service-user-id`), cast to the column type where used. */
  | { kind: 'session'; name: string }
  /** Column comparison (`_ceq` ...): a column of the current table, or of the root table (`["$", "col"]`). */
  | { kind: 'column'; column: string; root: boolean }
  /** A GraphQL variable of the query (bound at execution time). */
  | { kind: 'variable'; name: string; path: (string | number)[] }
  /** A streaming subscription's cursor: the cohort's current value, advanced after each batch (ir/select.ts `StreamCursor`). */
  | { kind: 'cursor' };

export const TRUE: BoolExp = { kind: 'and', items: [] };
export const isTrue = (b: BoolExp) => b.kind === 'and' && b.items.length === 0;
