/**
 * Mutations as the SQL layer needs them: permission checks and presets already folded in.
 * Plain data (it crosses threads as msgpack): per-column values are lists of pairs.
 */
import type { CatalogType, QualifiedName } from '../catalog/types.js';
import type { BoolExp, Value } from './boolexp.js';
import type { Field, Join } from './select.js';

/** [column, what it gets], in order. */
export type PerColumn<T> = [column: string, value: T][];

export interface OnConflict {
  constraint: string;
  /** Empty: DO NOTHING. */
  updateColumns: string[];
  /** The upsert's `where` and the role's update filter, on the existing row. */
  where: BoolExp;
  /** The update permission's presets, applied when the upsert updates. */
  presets: PerColumn<Value>;
}

/** SQL Server's upsert (`if_matched`): a row matching an existing one on `matchColumns` updates it instead. */
export interface IfMatched {
  matchColumns: string[];
  /** Empty: a matching row is left as it is (and not returned). */
  updateColumns: string[];
  /** The `where` and the role's update filter, on the existing row. */
  where: BoolExp;
  /** The update permission's presets, applied when a row is updated. */
  presets: PerColumn<Value>;
}

export interface InsertRow {
  /** Column values given in the input (presets added by the translator). */
  values: PerColumn<Value>;
  /** Parents inserted first; their columns fill this row's foreign key. */
  parents: { join: Join; insert: Insert }[];
  /** Children inserted after, with this row's columns in their foreign key. */
  children: { join: Join; insert: Insert }[];
}

export interface Insert {
  table: QualifiedName;
  columnTypes: PerColumn<CatalogType>;
  rows: InsertRow[];
  presets: PerColumn<Value>;
  check: BoolExp;
  onConflict: OnConflict | null;
  ifMatched?: IfMatched | null;
}

/** What the client selected from a mutation's rows. */
export type MutationOutput =
  /** `<table>_mutation_response`: affected_rows / returning / __typename. */
  | { kind: 'response'; items: ({ kind: 'affected_rows'; alias: string } | { kind: 'returning'; alias: string; fields: Field[] } | { kind: 'typename'; alias: string; typename: string })[] }
  /** `_one` / `_by_pk`: the row itself, or null. */
  | { kind: 'row'; fields: Field[] };

export interface Update {
  table: QualifiedName;
  /** Every column of the table (a backend that copies the changed rows declares them: SQL Server's OUTPUT INTO). */
  columnTypes: PerColumn<CatalogType>;
  /** column → SQL operator and value: `_set`, `_inc`, `_append`, `_prepend`, `_delete_key`, `_delete_elem`, `_delete_at_path`, or a preset. */
  operations: { column: string; type: CatalogType; op: string; value: Value }[];
  permission: BoolExp;
  where: BoolExp;
  check: BoolExp;
}

export interface Delete {
  table: QualifiedName;
  columnTypes: PerColumn<CatalogType>;
  permission: BoolExp;
  where: BoolExp;
}

export type MutationField =
  | { kind: 'insert'; alias: string; source: string; insert: Insert; output: MutationOutput; primaryKey: string[] | null }
  | { kind: 'update'; alias: string; source: string; updates: Update[]; output: MutationOutput; many: boolean }
  | { kind: 'delete'; alias: string; source: string; delete: Delete; output: MutationOutput };
