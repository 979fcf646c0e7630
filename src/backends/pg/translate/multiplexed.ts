/**
 * Live queries on PostgreSQL, multiplexed as the well-known engine does: the cohorts' values
 * go in as one json[] parameter, unnested WITH ORDINALITY, and the field's statement is
 * joined laterally to it, reading each cohort's values from its JSON where the plain
 * statement has parameters (`"__subs"."result_vars" #>> '{query,id}'`), the query's literals
 * included (synthetic variables: `#>> '{synthetic,0}'`). One statement serves
 * a whole batch of cohorts. A streaming field reads its cohort's cursor the same way
 * (`#>> '{cursor}'`) and also returns the new one.
 */
import type { RootField } from '../../../ir/select.js';
import { render, type ParamSource } from '../../../sql/fragment.js';
import type { TranslatedLiveField, TranslateOptions } from '../../faces/translator.js';
import { arrayText, PG_DIALECT } from '../dialect.js';
import { rootFieldSql } from './select.js';
import { initialCursor } from './stream.js';

const VARS = '"__subs"."result_vars"';

/** A `text[]` path for `#>`/`#>>`: `'{query,id}'` when the keys need no quoting, else an array of literals. */
function jsonPath(keys: (string | number)[]): string {
  const texts = keys.map(String);
  return texts.every((k) => /^[A-Za-z0-9_-]+$/.test(k)) ? `'{${texts.join(',')}}'` : PG_DIALECT.literal(texts);
}

/** The SQL reading one parameter's value from the cohort's JSON, of the type the parameter would have been bound as. */
function cohortValue(p: ParamSource, synthetic: number): string {
  switch (p.kind) {
    case 'literal':
      // Only the query's lifted literals are parameters here (see `render`).
      return `(${VARS} #>> ${jsonPath(['synthetic', synthetic])})`;
    case 'session':
      return `(${VARS} -> 'session')`;
    case 'variable': {
      const path = jsonPath(['query', p.name, ...p.path]);
      if (p.coerce === 'scalar') return `(${VARS} #>> ${path})`;
      if (p.coerce === 'json') return `coalesce(${VARS} #> ${path}, 'null')`;
      // A single value stands for a one-element list, as `bindParams` does.
      const v = `(${VARS} #> ${path})`;
      return `(CASE coalesce(json_typeof(${v}), 'null') WHEN 'array' THEN ARRAY(SELECT json_array_elements_text(${v})) WHEN 'null' THEN NULL ELSE ARRAY[${v} #>> '{}'] END)`;
    }
    case 'cursor':
      return `(${VARS} #>> '{cursor}')`;
    default:
      throw new Error(`a live query's statement cannot read a ${p.kind} parameter`);
  }
}

export function translateLiveField(field: Exclude<RootField, { kind: 'typename' }>, options: TranslateOptions): TranslatedLiveField {
  const { text, ...reads } = rootFieldSql(field, options);
  const rendered = render(text, PG_DIALECT, true);
  // A lifted list is a synthetic variable as the text of an array, which its cast reads (`#>>` gives text).
  const params = rendered.params.map((p) => (p.kind === 'literal' && Array.isArray(p.value) ? { ...p, value: arrayText(p.value) } : p));
  const plain = { ...rendered, params };
  // Rendering again in the same order, each placeholder becomes the cohort's value of that parameter.
  let lifted = 0;
  const synthetic = plain.params.map((p) => (p.kind === 'literal' ? lifted++ : -1));
  const inner = render(text, { placeholder: (n) => cohortValue(plain.params[n - 1]!, synthetic[n - 1]!), literal: PG_DIALECT.literal }, true);
  const stream = field.kind === 'stream';
  const multiplexed =
    `SELECT "__subs"."result_id", "__fld_resp"."root" AS "result"${stream ? `, "__fld_resp"."cursor" AS "cursor"` : ''} ` +
    `FROM unnest(($1)::json[]) WITH ORDINALITY AS "__subs"("result_vars", "result_id") ` +
    `LEFT OUTER JOIN LATERAL (${inner.text}) AS "__fld_resp" ON true`;
  return { ...plain, ...reads, multiplexed, ...(stream ? { stream: { initial: initialCursor(field) } } : {}) };
}
