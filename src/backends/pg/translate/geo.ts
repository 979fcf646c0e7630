/**
 * PostGIS comparison operators (`_st_*`). Values arrive as GeoJSON (a literal, a
 * variable, or a session variable holding the text) and enter SQL through
 * ST_GeomFromGeoJSON; geography columns compare with geography values.
 */
import type { CatalogType } from '../../../catalog/types.js';
import type { Value } from '../../../ir/boolexp.js';
import { literal, paramFrom, raw, sql, type Sql } from '../../../sql/fragment.js';
import type { BoolExpEnv } from './context.js';

const FUNCTIONS: Record<string, string> = {
  _st_contains: 'ST_Contains',
  _st_crosses: 'ST_Crosses',
  _st_equals: 'ST_Equals',
  _st_overlaps: 'ST_Overlaps',
  _st_touches: 'ST_Touches',
  _st_within: 'ST_Within',
  _st_intersects: 'ST_Intersects',
  _st_3d_intersects: 'ST_3DIntersects',
};

/** GeoJSON text as a geometry (or geography) value. */
function shape(text: Sql, type: CatalogType): Sql {
  const geometry = sql`ST_GeomFromGeoJSON(${text})`;
  return type.name === 'geography' ? sql`(${geometry})::geography` : geometry;
}

function geoJsonText(v: unknown | Value, env: BoolExpEnv): Sql {
  const value = v as Value;
  if (value && typeof value === 'object' && 'kind' in value) {
    if (value.kind === 'variable') return sql`(${paramFrom({ kind: 'variable', name: value.name, path: value.path, coerce: 'json' })})::text`;
    if (value.kind === 'session') {
      env.sessionVariables.add(value.name);
      return sql`((${paramFrom({ kind: 'session' })})::json->>${literal(value.name)})`;
    }
    if (value.kind === 'literal') return geoJsonText(value.value, env);
  }
  // A session variable named inside a literal (permissions: `from: "X-Service-Geom"`).
  if (typeof v === 'string' && v.toLowerCase().startsWith('x-service-')) return geoJsonText({ kind: 'session', name: v.toLowerCase() }, env);
  return sql`(${paramFrom({ kind: 'literal', value: typeof v === 'string' ? v : JSON.stringify(v) })})::text`;
}

export function geoComparison(lhs: Sql, type: CatalogType, op: string, value: Value, env: BoolExpEnv): Sql | null {
  const fn = FUNCTIONS[op];
  if (fn) return sql`${raw(fn)}(${lhs}, ${shape(geoJsonText(value, env), type)})`;
  if (op !== '_st_d_within' && op !== '_st_3d_d_within') return null;
  if (value.kind !== 'literal' || typeof value.value !== 'object' || value.value === null) throw new Error(`${op} needs {distance, from}`);
  const v = value.value as Record<string, unknown>;
  const distance =
    typeof v.distance === 'string' && v.distance.toLowerCase().startsWith('x-service-')
      ? sql`(${geoJsonText(v.distance, env)})::float8`
      : sql`(${paramFrom({ kind: 'literal', value: String(v.distance) })})::float8`;
  const from = shape(geoJsonText(v.from, env), type);
  const name = raw(op === '_st_d_within' ? 'ST_DWithin' : 'ST_3DDWithin');
  if (type.name === 'geography' && v.use_spheroid !== undefined) return sql`${name}(${lhs}, ${from}, ${distance}, ${raw(v.use_spheroid === false ? 'false' : 'true')})`;
  return sql`${name}(${lhs}, ${from}, ${distance})`;
}
