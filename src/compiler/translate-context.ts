/** The TranslateContext of one source for one role: catalog types, relationship joins, role filters. */
import type { PgIntrospection, QualifiedName } from '../backends/pg/catalog.js';
import type { TranslateContext } from '../backends/pg/translate/context.js';
import { sameTable, showTable } from '../metadata/names.js';
import type { MetadataSnapshot } from '../protocol/snapshot.js';
import type { RoleSchema } from '../schema/build.js';
import { tableKey } from '../schema/model.js';
import { relationshipJoin } from '../schema/relationships.js';
import { isObject } from '../util/decode.js';

export function createTranslateContext(snapshot: MetadataSnapshot, rs: RoleSchema, source: string, stringifyNumeric: boolean): TranslateContext {
  const intro = snapshot.sources[source]?.introspection as PgIntrospection;
  const meta = snapshot.metadata.sources.find((s) => s.name === source)!;
  const pgTable = (t: QualifiedName) => {
    const found = intro.tables.find((x) => sameTable(x, t));
    if (!found) throw new Error(`table ${showTable(t)} is not in the catalog of source ${source}`);
    return found;
  };
  return {
    stringifyNumeric,
    columnType(table, column) {
      const c = pgTable(table).columns.find((x) => x.name === column);
      if (!c) throw new Error(`column ${column} of ${showTable(table)} is not in the catalog`);
      return c.type;
    },
    relationship(table, name) {
      const t = meta.tables.find((x) => sameTable(x.table, table));
      const rel = [...(t?.object_relationships ?? []), ...(t?.array_relationships ?? [])].find((r) => r.name === name);
      const join = rel ? relationshipJoin(intro, pgTable(table), rel) : null;
      if (!join) throw new Error(`relationship ${name} of ${showTable(table)} cannot be resolved`);
      return { join, permission: rs.model.tables.get(tableKey(source, join.target))?.permission.filter ?? null };
    },
    computedField(table, name) {
      const t = meta.tables.find((x) => sameTable(x.table, table));
      const cf = (t?.computed_fields ?? []).find((c) => c.name === name);
      const def = cf && isObject(cf.definition) ? cf.definition : null;
      const fnRef = def && isObject(def.function) ? def.function : null;
      const fn = fnRef && intro.functions.find((f) => f.name === fnRef.name && f.schema === (typeof fnRef.schema === 'string' ? fnRef.schema : 'public'));
      if (!fn) throw new Error(`computed field ${name} of ${showTable(table)} cannot be resolved`);
      return { fn: { schema: fn.schema, name: fn.name }, returnType: fn.returnType, sessionArgument: typeof def!.session_argument === 'string' ? def!.session_argument : null };
    },
  };
}
