/** A backend's translator face, with the types it names (`backends/backend.ts` puts the faces together). */
import type { MutationField } from '../../ir/mutation.js';
import type { RootField } from '../../ir/select.js';
import type { ParamSource, Rendered } from '../../sql/fragment.js';

/** What a compiler thread needs of a backend: IR -> statements (the IR carries every type, join and permission). */
export interface Translator {
  /** The backend's name (`postgres`); several metadata source kinds may share one (citus). */
  readonly kind: string;

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
}

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
