/** Helpers shared by the PostgreSQL translators: output values, scopes and aliases, casts. */
import type { CatalogType } from '../../../catalog/types.js';
import { ident, raw, sql, type Sql } from '../../../sql/fragment.js';
import { Aliases as NeutralAliases, type Scope } from '../../../sql/scope.js';
import type { TranslateOptions } from '../../faces/translator.js';

/** A value for the JSON answer: PostGIS values as GeoJSON, wide numbers as text when configured. */
export function outputValue(value: Sql, type: CatalogType, options: TranslateOptions): Sql {
  // 15 digits and the long CRS name, as the well-known engine writes GeoJSON.
  if (type.name === 'geometry' || type.name === 'geography') return sql`ST_AsGeoJSON(${value}, 15, 4)::json`;
  return options.stringifyNumeric && type.traits.wide ? sql`(${value})::text` : value;
}

export type { Scope } from '../../../sql/scope.js';

/** Fresh aliases per statement: `"_0"`, `"_1"`, ... */
export class Aliases extends NeutralAliases {
  constructor() {
    super(ident, '_');
  }
}

export const col = (scope: Scope, column: string): Sql => raw(`${scope.alias.parts[0] as string}.${ident(column).parts[0] as string}`);

/** A type name usable in a cast: format_type's text, which is schema-qualified when needed. */
export const castType = (t: CatalogType): Sql => raw(t.display);

/** What the boolean expressions of one statement share. */
export interface BoolExpEnv {
  aliases: Aliases;
  /** The outermost table (`["$", "col"]` column references). */
  root: Scope;
  /** Session variables the statement reads (a request must carry them). */
  sessionVariables: Set<string>;
  /** Set when a function gets the whole session as its argument (then a live query's cohort keeps every session variable). */
  wholeSession: { read: boolean };
}
