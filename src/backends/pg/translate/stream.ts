/**
 * A streaming subscription's field (issue 11 item 3) as the well-known engine writes it: the
 * next `batch_size` rows after the cursor (the IR's `where` compares the cursor column with
 * the `cursor` parameter, its `orderBy` is that column), as a JSON array in `root`, and the
 * cursor's new value in `cursor`: the cursor column of the batch's last row, as text (NULL
 * for an empty batch, which leaves the cursor where it was).
 */
import type { RootField } from '../../../ir/select.js';
import type { ParamSource } from '../../../sql/fragment.js';
import { raw, sql, type Sql } from '../../../sql/fragment.js';
import { encodeLiteral } from './boolexp.js';
import type { Translator } from './select.js';

export type StreamField = Extract<RootField, { kind: 'stream' }>;

export function streamQuery(t: Translator, field: StreamField): Sql {
  // The last row in the cursor's order is the first in the opposite one.
  const opposite = raw(field.cursor.direction === 'asc' ? 'DESC' : 'ASC');
  const cursor = (s: Sql, orderKeys: { key: Sql }[]) => {
    const key = sql`${s}.${orderKeys[0]!.key}`;
    return sql`((array_agg(${key} ORDER BY ${key} ${opposite}))[1])::text AS cursor`;
  };
  return t.arrayQuery(field.rows, field.fields, null, undefined, cursor);
}

/** Where a cohort's first cursor value comes from: the query's literal, or a variable. */
export function initialCursor(field: StreamField): ParamSource {
  const v = field.cursor.initial;
  if (v.kind === 'literal') return { kind: 'literal', value: encodeLiteral(v.value) };
  if (v.kind === 'variable') return { kind: 'variable', name: v.name, path: v.path, coerce: 'scalar' };
  throw new Error("a cursor's initial value is a literal or a variable");
}
