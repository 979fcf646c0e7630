/**
 * A stored permission filter to the IR, through the metadata layer's parser (the
 * same one that validated it when it was stored), with the snapshot as its scope.
 */
import type { PgColumn } from '../backends/pg/catalog.js';
import { qualifiedKey } from '../backends/pg/catalog.js';
import type { BoolExp } from '../ir/boolexp.js';
import { parseBoolExp, type BoolExpScope, type BoolExpTable } from '../metadata/boolexp.js';
import { sameTable } from '../metadata/names.js';
import type { TableMetadata } from '../metadata/types.js';
import type { MetadataSnapshot } from '../protocol/snapshot.js';
import { relationshipJoin } from '../schema/relationships.js';
import { isObject, type Json } from '../util/decode.js';

const scopes = new WeakMap<MetadataSnapshot, Map<string, BoolExpScope>>();

function scopeFor(snapshot: MetadataSnapshot, source: string): BoolExpScope {
  let bySource = scopes.get(snapshot);
  if (!bySource) scopes.set(snapshot, (bySource = new Map()));
  let scope = bySource.get(source);
  if (scope) return scope;
  const intro = snapshot.sources[source]?.introspection;
  const meta = snapshot.metadata.sources.find((s) => s.name === source);
  const tables = new Map<string, BoolExpTable>();
  for (const t of meta?.tables ?? []) {
    const pg = intro?.tables.find((x) => sameTable(x, t.table));
    if (!pg || !intro) continue;
    const relationships = new Map<string, { target: { schema: string; name: string } }>();
    for (const rel of [...(t.object_relationships ?? []), ...(t.array_relationships ?? [])]) {
      const join = relationshipJoin(intro, pg, rel);
      if (join) relationships.set(String(rel.name), { target: join.target });
    }
    const computedFields: BoolExpTable['computedFields'] = new Map(
      (t.computed_fields ?? []).flatMap((cf) => {
        const def = isObject(cf.definition) ? cf.definition : null;
        const ref = def && isObject(def.function) ? def.function : null;
        const fn = ref && intro.functions.find((f) => f.name === ref.name && f.schema === (typeof ref.schema === 'string' ? ref.schema : 'public'));
        if (!fn) return [];
        const returns = fn.returnType.kind === 'c' ? { kind: 'table' as const, table: { schema: fn.returnType.schema, name: fn.returnType.name } } : { kind: 'scalar' as const, type: fn.returnType };
        const session = typeof def!.session_argument === 'string' ? def!.session_argument : null;
        const tableArg = typeof def!.table_argument === 'string' ? def!.table_argument : null;
        const inputArguments = fn.args.filter((a, i) => (tableArg ? a.name !== tableArg : i !== 0) && a.name !== session);
        return [[String(cf.name), { returns, inputArguments }]];
      }),
    );
    tables.set(qualifiedKey(t.table), {
      name: t.table,
      columns: new Map<string, PgColumn>(pg.columns.map((c) => [c.name, c])),
      relationships,
      computedFields,
    });
  }
  scope = { source, table: (name) => tables.get(qualifiedKey(name)) };
  bySource.set(source, scope);
  return scope;
}

export function compilePermissionFilter(snapshot: MetadataSnapshot, table: TableMetadata, filter: Json): BoolExp {
  const source = snapshot.metadata.sources.find((s) => s.tables.includes(table))!.name;
  const scope = scopeFor(snapshot, source);
  const t = scope.table(table.table);
  if (!t) throw new Error(`table ${qualifiedKey(table.table)} is not resolved in source ${source}`);
  return parseBoolExp(filter, t, scope, '$');
}
