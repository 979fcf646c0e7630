/**
 * What a role's GraphQL schema is made of, as text: roles with the same shape get the same
 * schema and field table, built once. Filters, checks, preset values and row limits do not
 * appear in a schema (they only shape the SQL, which the compiler builds from the role's own
 * model), so roles that differ only in them share it: 11 roles over 5,000 tables are
 * typically one or two schemas. This must name everything `buildRoleSchema` reads from a
 * RoleModel (build.ts, mutation-types.ts, functions.ts); the rest of what it reads is the
 * same for every role of a snapshot.
 */
import type { RoleModel } from './model.js';

const granted = (m: Map<string, unknown>) => [...m].map(([name, condition]) => (condition === null ? name : `${name}?`)).join(',');
const names = (items: Iterable<string>) => [...items].join(',');
const roots = (s: Set<string> | null) => (s === null ? '*' : names([...s].sort()));

/** By the model's tables: roles sharing a model (model.ts `RoleModels`) share its shape too. */
const shapes = new WeakMap<RoleModel['tables'], string>();

export function schemaShape(model: RoleModel): string {
  let shape = shapes.get(model.tables);
  if (shape === undefined) shapes.set(model.tables, (shape = shapeOf(model)));
  return shape;
}

function shapeOf(model: RoleModel): string {
  const parts: string[] = [];
  for (const t of model.tables.values()) {
    const p = t.permission;
    parts.push(
      `select ${t.key}|${granted(p.columns)}|${granted(p.computedFields)}|${p.allowAggregations}|${roots(p.queryRootFields)}|${roots(p.subscriptionRootFields)}|` +
        `${names(t.columns.map((c) => c.column.name))}|${names(t.relationships.map((r) => r.name))}|${names(t.computedFields.map((c) => c.name))}`,
    );
  }
  for (const m of model.mutable.values()) {
    const ins = m.insert ? `${names(m.insert.columns)}/${names(m.insert.set.keys())}` : '-';
    const upd = m.update ? `${names(m.update.columns)}/${names(m.update.set.keys())}` : '-';
    parts.push(`mutate ${m.key}|${ins}|${upd}|${m.delete ? 'delete' : '-'}|${m.selectable ? 'returning' : '-'}|${names(m.relationships.map((r) => r.name))}`);
  }
  for (const f of model.functions) parts.push(`function ${f.rootName}|${f.aggregateName}|${f.table.key}`);
  return parts.join('\n');
}
