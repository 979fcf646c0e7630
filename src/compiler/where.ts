/** A `where` argument (`<table>_bool_exp`) to the boolean expression IR. */
import { isCast, type BoolExp, type ComparisonOp } from '../ir/boolexp.js';
import type { TableInfo, RoleModel } from '../schema/model.js';
import { RequestError } from '../errors/request.js';
import type { InputTree, Inputs } from './inputs.js';

/** Operators whose value is a list; the rest compare with one value. */
const LIST_OPERATORS = new Set(['_in', '_nin', '_has_keys_any', '_has_keys_all', '_ancestor_any', '_descendant_any', '_matches_any']);

function comparisonOps(tree: InputTree, inputs: Inputs, path: string): ComparisonOp[] {
  const obj = inputs.object(tree, path);
  if (!obj) return [];
  const ops: ComparisonOp[] = [];
  for (const [op, raw] of Object.entries(obj)) {
    const p = `${path}.${op}`;
    if (op === '_is_null') {
      const v = inputs.resolve(raw);
      if (v !== null) ops.push({ op, value: { kind: 'literal', value: v as boolean } });
      continue;
    }
    if (op === '_cast') {
      // `<scalar>_cast_exp`'s fields name the GraphQL scalar cast to (schema/shared-types.ts).
      for (const [type, inner] of Object.entries(inputs.object(raw, p) ?? {})) ops.push({ op, to: type === 'String' ? 'text' : type, ops: comparisonOps(inner, inputs, `${p}.${type}`) });
      continue;
    }
    if (LIST_OPERATORS.has(op)) {
      const v = inputs.scalar(raw);
      if (v) ops.push({ op, value: v.kind === 'literal' && !Array.isArray(v.value) ? { ...v, value: [v.value] } : v });
      continue;
    }
    const v = inputs.scalar(raw);
    if (v) ops.push({ op, value: v });
  }
  return ops;
}

const LABEL_PATH = /^([A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*)?$/;
const LTREE_OPERATORS = new Set(['_eq', '_neq', '_gt', '_gte', '_lt', '_lte', '_in', '_nin', '_ancestor', '_descendant', '_ancestor_any', '_descendant_any']);

/** ltree values are checked here, as the well-known engine does, not left to the database. */
function checkLabelPaths(ops: ComparisonOp[], path: string): void {
  for (const op of ops) {
    if (isCast(op) || !LTREE_OPERATORS.has(op.op) || op.value.kind !== 'literal') continue;
    const values = Array.isArray(op.value.value) ? op.value.value : [op.value.value];
    values.forEach((v, i) => {
      if (typeof v === 'string' && !LABEL_PATH.test(v)) {
        const at = Array.isArray(op.value.kind === 'literal' ? op.value.value : null) && op.op.endsWith('_any') ? `${path}.${op.op}[${i}]` : `${path}.${op.op}`;
        throw new RequestError('Expecting label path: a sequence of zero or more labels separated by dots, for example L1.L2.L3', at, 'parse-failed');
      }
    });
  }
}

export function parseWhere(model: RoleModel, table: TableInfo, tree: InputTree, inputs: Inputs, path: string): BoolExp {
  const obj = inputs.object(tree, path);
  if (!obj) return { kind: 'and', items: [] };
  const items: BoolExp[] = [];
  for (const [key, value] of Object.entries(obj)) {
    const p = `${path}.${key}`;
    if (key === '_and' || key === '_or') {
      const list = inputs.list(value) ?? [];
      const parts = list.map((x, i) => parseWhere(model, table, x, inputs, `${p}[${i}]`));
      items.push(key === '_and' ? { kind: 'and', items: parts } : { kind: 'or', items: parts });
      continue;
    }
    if (key === '_not') {
      if (inputs.object(value, p)) items.push({ kind: 'not', item: parseWhere(model, table, value, inputs, p) });
      continue;
    }
    const column = table.columns.find((c) => c.fieldName === key);
    if (column) {
      const ops = comparisonOps(value, inputs, p);
      if (column.column.type.traits.family === 'label-tree') checkLabelPaths(ops, p);
      const visibleWhen = table.permission.columns.get(column.column.name);
      if (ops.length > 0) items.push({ kind: 'column', column: column.column.name, type: column.column.type, ops, ...(visibleWhen ? { visibleWhen } : {}) });
      continue;
    }
    const rel = table.relationships.find((r) => r.fieldName === key);
    if (rel) {
      const target = model.tables.get(rel.targetKey)!;
      items.push({ kind: 'relationship', relationship: rel.name, join: rel.join, where: parseWhere(model, target, value, inputs, p), permission: target.permission.filter });
      continue;
    }
    const cf = table.computedFields.find((c) => c.fieldName === key);
    if (cf && !cf.returnsTable) {
      const ops = comparisonOps(value, inputs, p);
      const visibleWhen = table.permission.computedFields.get(cf.name);
      if (ops.length > 0) items.push({ kind: 'computed', field: cf.name, call: cf.call, ops, ...(visibleWhen ? { visibleWhen } : {}) });
      continue;
    }
    const target = cf?.returnsTable ? model.tables.get(cf.returnsTable) : undefined;
    if (cf && target) {
      items.push({ kind: 'computed_rows', field: cf.name, call: cf.call, table: { schema: target.catalog.schema, name: target.catalog.name }, where: parseWhere(model, target, value, inputs, p) });
      continue;
    }
    throw new RequestError(`field ${JSON.stringify(key)} not found in type: '${table.naming.typeName(table.identifier + '_bool_exp')}'`, p);
  }
  return items.length === 1 ? items[0]! : { kind: 'and', items };
}
