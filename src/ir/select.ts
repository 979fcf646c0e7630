/**
 * A query's root field as the SQL layer needs it: which rows of which table (with
 * the role's permission already folded into `where` and `limit`) and which fields of
 * them, nested through relationships and aggregates.
 */
import type { CatalogType, QualifiedName } from '../catalog/types.js';
import type { BoolExp, ComputedCall, Join, Value } from './boolexp.js';

export type { Join } from './boolexp.js';

export interface OrderByItem {
  /** Object relationships to follow first (each with the target's permission filter). */
  path: { join: Join; permission: BoolExp }[];
  target:
    /** `visibleWhen` as for selected columns (inherited roles): ordering sees what the selection shows. */
    | { kind: 'column'; column: string; visibleWhen: BoolExp | null }
    /** An array relationship's aggregate: count, or fn(column). */
    | { kind: 'aggregate'; join: Join; permission: BoolExp; fn: string; column: string | null; visibleWhen: BoolExp | null }
    /** A scalar computed field without arguments of its own, called on the row. */
    | { kind: 'computed'; call: ComputedCall; visibleWhen: BoolExp | null };
  direction: 'asc' | 'desc';
  nulls: 'first' | 'last' | null;
}

/** A column the query names; `visibleWhen` as for selected columns (inherited roles). */
export interface VisibleColumn {
  column: string;
  visibleWhen: BoolExp | null;
}

/** Which rows: the table, the role's filter and the query's, ordering and paging. */
export interface RowSource {
  table: QualifiedName;
  /** The select permission's filter (relationships in it are not themselves permission-checked). */
  permission: BoolExp;
  /** The query's `where` (relationships in it apply the target's permission). */
  where: BoolExp;
  orderBy: OrderByItem[];
  distinctOn: VisibleColumn[];
  limit: Value | null;
  offset: Value | null;
  /** The select permission's `limit`: the most rows the role may get, whatever `limit` says. */
  limitCap: number | null;
}

export type Field =
  | { kind: 'typename'; alias: string; typename: string }
  | { kind: 'column'; alias: string; column: string; type: CatalogType; visibleWhen: BoolExp | null; jsonPath: Value | null }
  | { kind: 'object'; alias: string; join: Join; permission: BoolExp; fields: Field[] }
  | { kind: 'array'; alias: string; join: Join; rows: RowSource; fields: Field[] }
  | { kind: 'aggregate'; alias: string; join: Join; rows: RowSource; aggregate: AggregateSelection }
  | { kind: 'computed_scalar'; alias: string; call: FunctionCall; returnType: CatalogType; visibleWhen: BoolExp | null }
  | { kind: 'computed_set'; alias: string; call: FunctionCall; rows: RowSource; fields: Field[] };

/** A function call: arguments in the function's order (trailing ones left out take their defaults). */
export interface FunctionCall {
  fn: QualifiedName;
  /**
   * `row`: the current row (computed fields); `column`: a column of the current row (BigQuery's
   * `argument_mapping`); `session`: the session variables as JSON.
   */
  args: ({ kind: 'row' } | { kind: 'column'; column: string } | { kind: 'session' } | { kind: 'value'; value: Value; type: CatalogType })[];
}

export type AggregateField =
  | { kind: 'typename'; alias: string; typename: string }
  | { kind: 'count'; alias: string; columns: VisibleColumn[]; distinct: boolean }
  | { kind: 'fn'; alias: string; fn: string; columns: TypenameOrColumn[] };

/** A column inside an aggregate function; `visibleWhen` as for fields (inherited roles). */
export type TypenameOrColumn = { alias: string; column: string; type: CatalogType; visibleWhen: BoolExp | null } | { alias: string; typename: string };

export type AggregateSelection = (
  | { kind: 'typename'; alias: string; typename: string }
  | { kind: 'aggregate'; alias: string; fields: AggregateField[] }
  | { kind: 'nodes'; alias: string; fields: Field[] }
)[];

/**
 * A streaming subscription's cursor column. Its rows' `where` compares the column with the
 * `cursor` value (after it in `direction`) and its `orderBy` is the column: each batch is
 * the next rows after the cursor. `initial`: the cursor's first value.
 */
export interface StreamCursor {
  column: string;
  type: CatalogType;
  direction: 'asc' | 'desc';
  initial: Value;
}

/**
 * `from`: rows come from a tracked function (of the table's row type) instead of the table.
 * `stream`: the next batch of rows after a cursor (`rows.limit` is the batch size), with the
 * cursor's new value.
 */
export type RootField =
  | { kind: 'select'; alias: string; source: string; rows: RowSource; fields: Field[]; from?: FunctionCall }
  | { kind: 'select_one'; alias: string; source: string; rows: RowSource; fields: Field[] }
  | { kind: 'stream'; alias: string; source: string; rows: RowSource; fields: Field[]; cursor: StreamCursor }
  | { kind: 'aggregate'; alias: string; source: string; rows: RowSource; aggregate: AggregateSelection; from?: FunctionCall }
  | { kind: 'typename'; alias: string; typename: string }
  /**
   * A `to_source` remote relationship's rows for every key tuple of the response (a join
   * step): `keys` name each tuple's values (`child`) and the target column they equal; the
   * answer is one value per tuple, in order (an object or null; a list when `many`).
   */
  | { kind: 'join'; alias: string; source: string; rows: RowSource; fields: Field[]; keys: { child: string; column: string; type: CatalogType }[]; many: boolean };
