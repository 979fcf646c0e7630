/**
 * Boolean expressions, backend-neutral: what a permission `filter`/`check` and a
 * GraphQL `where` argument both become. Values are literals, session variables or
 * columns; the SQL layer turns them into parameters and quoted identifiers.
 */
import type { QualifiedName } from '../metadata/catalog.js';
import type { Json } from '../util/decode.js';

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
  | { kind: 'column'; column: string; ops: ComparisonOp[]; visibleWhen?: BoolExp }
  /** Through a relationship of the current table: some related row matches `where`. */
  | { kind: 'relationship'; relationship: string; where: BoolExp }
  /** A scalar computed field compared like a column. */
  | { kind: 'computed'; field: string; ops: ComparisonOp[] }
  /** A computed field returning rows of `table`: some row it returns matches `where`. */
  | { kind: 'computed_rows'; field: string; table: QualifiedName; where: BoolExp };

export interface ComparisonOp {
  /** Canonical operator name: `_eq`, `_neq`, `_in`, `_is_null`, `_ceq`, `_contains`, `_st_d_within`, ... (`$neq`/`_ne` are normalised). */
  op: string;
  value: Value;
}

export type Value =
  /** A literal from the metadata or the query; for `_in`/`_nin`/`_has_keys_*` an array. */
  | { kind: 'literal'; value: Json }
  /** A session variable, lower-cased name (`x-service-user-id`), cast to the column type where used. */
  | { kind: 'session'; name: string }
  /** Column comparison (`_ceq` ...): a column of the current table, or of the root table (`["$", "col"]`). */
  | { kind: 'column'; column: string; root: boolean }
  /** A GraphQL variable of the query (bound at execution time). */
  | { kind: 'variable'; name: string; path: (string | number)[] };

export const TRUE: BoolExp = { kind: 'and', items: [] };
export const isTrue = (b: BoolExp) => b.kind === 'and' && b.items.length === 0;
