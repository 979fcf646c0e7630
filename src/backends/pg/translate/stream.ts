/**
 * A streaming subscription's field as the well-known engine writes it: the
 * next `batch_size` rows after the cursor (the IR's `where` compares the cursor column with
 * the `cursor` parameter, its `orderBy` is that column), as a JSON array in `root`, and the
 * cursor's new value in `cursor`: the cursor column of the batch's last row, as text (NULL
 * for an empty batch, which leaves the cursor where it was).
 */
import type { RootField } from '../../../ir/select.js';
import type { ParamSource } from '../../../sql/fragment.js';
import { raw, sql, type Sql } from '../../../sql/fragment.js';
import { encodeLiteral } from './boolexp.js';

export type StreamField = Extract<RootField, { kind: 'stream' }>;

/**
 * What the batch's query selects beside the rows (`arrayQuery`'s `also`): the cursor's new
 * value, from the batch's rows `s` in their order.
 */
export function streamCursor(field: StreamField): (s: Sql, orderKeys: readonly { key: Sql }[]) => Sql {
  // The last row in the cursor's order is the first in the opposite one.
  const opposite = raw(field.cursor.direction === 'asc' ? 'DESC' : 'ASC');
  return (s, orderKeys) => {
    const key = sql`${s}.${orderKeys[0]!.key}`;
    return sql`((array_agg(${key} ORDER BY ${key} ${opposite}))[1])::text AS cursor`;
  };
}

/** Where a cohort's first cursor value comes from: the query's literal, or a variable. */
export function initialCursor(field: StreamField): ParamSource {
  const v = field.cursor.initial;
  if (v.kind === 'literal') return { kind: 'literal', value: encodeLiteral(v.value) };
  if (v.kind === 'variable') return { kind: 'variable', name: v.name, path: v.path, coerce: 'scalar' };
  throw new Error("a cursor's initial value is a literal or a variable");
}
