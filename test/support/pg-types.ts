/** PostgreSQL catalog types as the pg backend's introspection makes them (traits included), for tests that build catalogs by hand. */
import type { CatalogType } from '../../src/catalog/types.js';
import { typeInterner, type PgTypeRow } from '../../src/backends/pg/type-traits.js';

const CATEGORIES: Record<string, string> = { int2: 'N', int4: 'N', int8: 'N', numeric: 'N', float4: 'N', float8: 'N', money: 'N', text: 'S', varchar: 'S', bpchar: 'S', bool: 'B' };
const intern = typeInterner();

/** A pg_catalog type by its typname (`display` defaults to the name; category from the name unless given). */
export function pgType(name: string, display = name, more: Partial<PgTypeRow> = {}): CatalogType {
  return intern({ schema: 'pg_catalog', name, display, kind: 'b', category: CATEGORIES[name] ?? (name.startsWith('_') ? 'A' : 'U'), element: null, ...more });
}
