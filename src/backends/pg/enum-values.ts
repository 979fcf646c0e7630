/** The rows of enum tables (`is_enum`): value (the primary key) and optional comment column. */
import type pg from 'pg';
import { qualifiedKey, type DatabaseCatalog, type QualifiedName } from '../../catalog/types.js';
import { ident, qualified, sql } from '../../sql/fragment.js';
import { renderPg } from './dialect.js';
import type { EnumValues } from '../faces/admin.js';

export async function loadEnumValues(pool: pg.Pool, catalog: DatabaseCatalog, tables: QualifiedName[]): Promise<EnumValues> {
  const out: EnumValues = {};
  await Promise.all(
    tables.map(async (t) => {
      const pg = catalog.tables.find((x) => x.schema === t.schema && x.name === t.name);
      const pk = pg?.primaryKey?.columns[0];
      if (!pg || !pk) return;
      const comment = pg.columns.find((c) => c.name !== pk)?.name;
      const q = renderPg(sql`SELECT ${ident(pk)}::text AS value, ${comment ? sql`${ident(comment)}::text` : sql`NULL::text`} AS comment FROM ${qualified(t.schema, t.name)} ORDER BY 1`);
      try {
        const r = await pool.query<{ value: string; comment: string | null }>(q.text);
        out[qualifiedKey(t)] = r.rows;
      } catch {
        out[qualifiedKey(t)] = [];
      }
    }),
  );
  return out;
}
