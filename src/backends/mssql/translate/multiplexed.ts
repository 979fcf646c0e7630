/**
 * Live queries on SQL Server, multiplexed as on PostgreSQL: the cohorts' values go in as one
 * parameter, a JSON array of the cohorts' JSON texts, read with OPENJSON (`[key]` its 0-based
 * position, `[value]` the cohort's text); the field's statement is OUTER APPLied to it,
 * reading each cohort's values with JSON_VALUE / JSON_QUERY where the plain statement has
 * parameters. One statement answers a whole batch of cohorts (`TranslatedLiveField`).
 * JSON_VALUE reads at most 4000 characters: a longer variable value reads as NULL.
 */
import type { RootField } from '../../../ir/select.js';
import { render, type ParamSource } from '../../../sql/fragment.js';
import { sessionVariablesOf } from '../../../ir/session-variables.js';
import type { TranslatedLiveField, TranslateOptions } from '../../faces/translator.js';
import { MSSQL_DIALECT } from '../dialect.js';
import { notSupported } from './context.js';
import { rootFieldSql } from './select.js';

const COHORT = '[__subs].[value]';

/** A JSON path literal: keys quoted, array positions as `[n]`. */
const jsonPath = (keys: (string | number)[]): string => MSSQL_DIALECT.literal('$' + keys.map((k) => (typeof k === 'number' ? `[${k}]` : `.${JSON.stringify(k)}`)).join(''));

/** The SQL reading one parameter's value from the cohort's JSON, as the plain statement would have bound it (text). */
function cohortValue(p: ParamSource, synthetic: number): string {
  switch (p.kind) {
    case 'literal':
      // Only the query's lifted literals are parameters here (see `render`).
      return `JSON_VALUE(${COHORT}, ${jsonPath(['synthetic', synthetic])})`;
    case 'session':
      return `JSON_QUERY(${COHORT}, ${jsonPath(['session'])})`;
    case 'variable': {
      const path = jsonPath(['query', p.name, ...p.path]);
      if (p.coerce === 'scalar') return `JSON_VALUE(${COHORT}, ${path})`;
      if (p.coerce === 'json') return `ISNULL(JSON_QUERY(${COHORT}, ${path}), N'[]')`;
      throw notSupported('an array variable in a subscription');
    }
    default:
      throw notSupported(`a ${p.kind} parameter in a subscription`);
  }
}

export function translateLiveField(field: Exclude<RootField, { kind: 'typename' }>, options: TranslateOptions): TranslatedLiveField {
  const statement = rootFieldSql(field, options);
  const plain = render(statement, MSSQL_DIALECT, true);
  // Rendering again in the same order, each placeholder becomes the cohort's value of that parameter.
  let lifted = 0;
  const synthetic = plain.params.map((p) => (p.kind === 'literal' ? lifted++ : -1));
  const inner = render(statement, { placeholder: (n) => cohortValue(plain.params[n - 1]!, synthetic[n - 1]!), literal: MSSQL_DIALECT.literal }, true);
  const multiplexed = `SELECT CAST([__subs].[key] AS int) + 1 AS [result_id], [__fld_resp].[root] AS [result] FROM OPENJSON(@p1) AS [__subs] OUTER APPLY (${inner.text}) AS [__fld_resp]`;
  return { ...plain, sessionVariables: sessionVariablesOf(field), wholeSession: false, multiplexed };
}
