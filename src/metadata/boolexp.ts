/**
 * Boolean expressions from their JSON form (permission `filter`/`check`) to the IR
 * (`ir/boolexp.ts`), checked against the table they apply to: `_and`/`_or`/`_not`/
 * `_exists` (and `$` aliases), columns with comparison operators, relationships
 * (a nested expression on the target table) and computed fields (scalar ones compared
 * like columns, set-returning ones like array relationships). A pure
 * function of resolved metadata and catalog, so the schema builder can call it too.
 * Errors carry the JSON path of the offending key.
 */
import type { CatalogColumn, CatalogType, QualifiedName } from '../catalog/types.js';
import { computedCall, type BoolExp } from '../ir/boolexp.js';
import { badRequest, parseFailed } from '../errors/admin.js';
import { isObject, jsonKind, keyPath, type Json } from '../util/decode.js';
import { parseComparisons, type Operand } from './boolexp-operators.js';
import { showTable, tableName } from './names.js';
import type { ResolvedComputedField, ResolvedRelationship } from './resolve/types.js';

/** What an expression on a table may refer to (a resolved table fits). */
export interface BoolExpTable {
  name: QualifiedName;
  columns: ReadonlyMap<string, CatalogColumn>;
  relationships: ReadonlyMap<string, Pick<ResolvedRelationship, 'target' | 'mapping'>>;
  computedFields: ReadonlyMap<string, Pick<ResolvedComputedField, 'returns' | 'inputArguments' | 'function' | 'tableArgument' | 'sessionArgument'>>;
}

/** The tracked tables of the source, for relationship targets and `_exists`. */
export interface BoolExpScope {
  source: string;
  table(name: QualifiedName): BoolExpTable | undefined;
  /** The source's base types (`DatabaseCatalog.baseTypes`), for operator type errors. */
  baseTypes: readonly CatalogType[];
}

/**
 * Expressions already parsed with one root table, by the table they apply to (a relationship's
 * target too): the permissions of a table's roles repeat the same conditions (the owner's rows,
 * say), and each would otherwise hold its own copy of the same IR. An expression is found by its
 * object (roles given equal conditions share one: equal-permissions.ts), a column's comparisons
 * by their JSON text, within conditions that differ. Only those are written out as text: a key
 * for every nested expression cost the resolution 0.5 s at 5,000 tables × 11 roles of their own.
 * Only what parsed is kept (an error names its own path). The IR is never changed once made, so
 * it can be shared.
 */
export type ParsedExpressions = Map<BoolExpTable, { objects: Map<object, BoolExp>; comparisons: Map<string, BoolExp> }>;

interface Walk {
  scope: BoolExpScope;
  /** The table `["$", "col"]` refers to: the one the whole expression applies to. */
  root: BoolExpTable;
  parsed: ParsedExpressions | null;
}

/**
 * Parses `v` as a boolean expression on `table`; throws an ApiError with the path of the
 * problem. `parsed`: what earlier expressions on the same table parsed to, shared with them.
 */
export function parseBoolExp(v: unknown, table: BoolExpTable, scope: BoolExpScope, path: string, parsed: ParsedExpressions | null = null): BoolExp {
  return expression(v as Json, table, { scope, root: table, parsed }, path);
}

const primitive = (x: Json) => x === null || typeof x !== 'object';
/** A column's comparisons as written (`{"_eq": 1}`, `{"_in": [1, 2]}`): small, and written out once. */
const flat = (v: Json) => isObject(v) && Object.values(v).every((x) => primitive(x) || (Array.isArray(x) && x.every(primitive)));

function expression(v: Json, table: BoolExpTable, w: Walk, path: string): BoolExp {
  if (!isObject(v)) throw parseFailed('expecting an Object for boolean exp', path);
  let memo = w.parsed?.get(table);
  if (w.parsed && !memo) w.parsed.set(table, (memo = { objects: new Map(), comparisons: new Map() }));
  const known = memo?.objects.get(v);
  if (known) return known;
  const item = (key: string, x: Json): BoolExp => {
    if (!memo || !flat(x)) return term(key, x, table, w, keyPath(path, key));
    const text = `${key}\u0000${JSON.stringify(x)}`;
    let found = memo.comparisons.get(text);
    if (!found) memo.comparisons.set(text, (found = term(key, x, table, w, keyPath(path, key))));
    return found;
  };
  const items = Object.entries(v).map(([key, x]) => item(key, x));
  const parsed: BoolExp = items.length === 1 ? items[0]! : { kind: 'and', items };
  memo?.objects.set(v, parsed);
  return parsed;
}

function expressions(v: Json, table: BoolExpTable, w: Walk, path: string): BoolExp[] {
  if (!Array.isArray(v)) throw parseFailed(`parsing [] failed, expected Array, but encountered ${jsonKind(v)}`, path);
  return v.map((x, i) => expression(x, table, w, `${path}[${i}]`));
}

function term(key: string, v: Json, table: BoolExpTable, w: Walk, path: string): BoolExp {
  switch (key) {
    case '_and':
    case '$and':
      return { kind: 'and', items: expressions(v, table, w, path) };
    case '_or':
    case '$or':
      return { kind: 'or', items: expressions(v, table, w, path) };
    case '_not':
    case '$not':
      return { kind: 'not', item: expression(v, table, w, path) };
    case '_exists':
    case '$exists':
      return exists(v, w, path);
    default:
      return field(key, v, table, w, path);
  }
}

/** `_exists: {_table, _where}`: some row of another tracked table matches. */
function exists(v: Json, w: Walk, path: string): BoolExp {
  if (!isObject(v)) throw parseFailed(`parsing _exists failed, expected Object, but encountered ${jsonKind(v)}`, path);
  if (v._table === undefined) throw parseFailed('key "_table" not found', path);
  if (v._where === undefined) throw parseFailed('key "_where" not found', path);
  const name = tableName(v._table, `${path}._table`);
  const target = w.scope.table(name);
  if (!target) {
    throw badRequest('not-exists', `table ${JSON.stringify(showTable(name))} does not exist in source: ${w.scope.source}`, `${path}._table`);
  }
  return { kind: 'exists', table: name, where: expression(v._where, target, w, `${path}._where`) };
}

function operand(name: string, column: CatalogColumn | { type: CatalogColumn['type'] }, table: BoolExpTable, w: Walk): Operand {
  return { name, type: column.type, columns: table.columns, rootColumns: w.root.columns, baseTypes: w.scope.baseTypes };
}

function field(key: string, v: Json, table: BoolExpTable, w: Walk, path: string): BoolExp {
  const opPath = (op: string) => keyPath(path, op);
  const column = table.columns.get(key);
  if (column) {
    if (column.type.traits.family === 'json') throw badRequest('unexpected-payload', 'JSON column can not be part of boolean expression', path);
    return { kind: 'column', column: key, type: column.type, ops: parseComparisons(operand(key, column, table, w), v, path, opPath) };
  }
  const rel = table.relationships.get(key);
  if (rel) {
    const target = w.scope.table(rel.target);
    if (!target) throw badRequest('not-exists', `table ${JSON.stringify(showTable(rel.target))} is not tracked`, path);
    return { kind: 'relationship', relationship: key, join: { target: rel.target, mapping: rel.mapping }, where: expression(v, target, w, path) };
  }
  const computed = table.computedFields.get(key);
  if (computed) {
    if (computed.inputArguments.length > 0) {
      throw badRequest('unexpected-payload', 'Computed columns with input arguments can not be part of the where clause', path);
    }
    if (computed.returns.kind === 'table') {
      const target = w.scope.table(computed.returns.table);
      if (!target) throw badRequest('not-exists', `table ${JSON.stringify(showTable(computed.returns.table))} is not tracked`, path);
      return { kind: 'computed_rows', field: key, call: computedCall(computed.function, computed.tableArgument, computed.sessionArgument), table: computed.returns.table, where: expression(v, target, w, path) };
    }
    return { kind: 'computed', field: key, call: computedCall(computed.function, computed.tableArgument, computed.sessionArgument), ops: parseComparisons(operand(key, { type: computed.returns.type }, table, w), v, path, opPath) };
  }
  throw badRequest('not-exists', `${JSON.stringify(key)} does not exist`, path);
}
