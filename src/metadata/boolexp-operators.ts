/**
 * The comparison operators of boolean expressions, as the well-known engine parses
 * them for PostgreSQL: which column types each applies to, what its operand must be
 * (a value of the column's type, a list of them, a boolean, another column), and the
 * `$`-prefixed aliases. Values are checked against the column type the way the
 * well-known engine decodes them: any string passes (the database parses it), other
 * JSON must fit the type; strings starting with `x-service-` are session variables.
 */
import type { CatalogColumn, CatalogType, LiteralShape, TypeFamily } from '../catalog/types.js';
import { literal } from '../catalog/type-traits.js';
import type { ComparisonOp, Value } from '../ir/boolexp.js';
import { badRequest, parseFailed } from '../errors/admin.js';
import { isObject, jsonKind, keyPath, type Json } from '../util/decode.js';

/** What a comparison is made against: the column (or computed field) and its table's columns. */
export interface Operand {
  /** Column or computed field name, as messages print it. */
  name: string;
  type: CatalogType;
  /** Columns of the current and of the root table, for `_ceq` and friends. */
  columns: ReadonlyMap<string, CatalogColumn>;
  rootColumns: ReadonlyMap<string, CatalogColumn>;
  /** The database's base types, which an operator's type error lists. */
  baseTypes: readonly CatalogType[];
}

const SESSION_PREFIX = 'x-service-';

/** A session variable name (lower-cased) when the value is one. */
export function sessionVariable(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const lower = v.toLowerCase();
  return lower.startsWith(SESSION_PREFIX) ? lower : null;
}


const isArrayType = (t: CatalogType) => t.element !== null;

/** What a literal compared with a value of this type must be (an array's elements are left to the database). */
const literalOf = (t: CatalogType): LiteralShape | null => (isArrayType(t) ? null : t.traits.literal);

/** Checks a literal against a column type (strings are left to the database). */
export function checkLiteral(type: CatalogType, v: Json, path: string): void {
  checkShape(literalOf(type), v, path);
}

function checkShape(shape: LiteralShape | null, v: Json, path: string): void {
  if (!shape || v === null || typeof v === 'string') return;
  const failed = (expected: string) => parseFailed(`parsing ${shape.decoder} failed, expected ${expected}, but encountered ${jsonKind(v)}`, path);
  switch (shape.json) {
    case 'integer':
      if (typeof v !== 'number') throw failed('Number');
      if (!Number.isInteger(v)) throw parseFailed(`parsing ${shape.decoder} failed, value is either floating or will cause over or underflow ${v}`, path);
      return;
    case 'number':
      if (typeof v !== 'number') throw failed('Number');
      return;
    case 'boolean':
      if (typeof v !== 'boolean') throw failed('Boolean');
      return;
    case 'string':
      throw failed('String');
  }
}

function scalar(shape: LiteralShape | null, v: Json, path: string): Value {
  const session = sessionVariable(v);
  if (session) return { kind: 'session', name: session };
  checkShape(shape, v, path);
  return { kind: 'literal', value: v };
}

function list(shape: LiteralShape | null, v: Json, path: string): Value {
  const session = sessionVariable(v);
  if (session) return { kind: 'session', name: session };
  if (!Array.isArray(v)) throw parseFailed(`parsing [] failed, expected Array, but encountered ${jsonKind(v)}`, path);
  v.forEach((x, i) => checkShape(shape, x, `${path}[${i}]`));
  return { kind: 'literal', value: v };
}

function boolean(v: Json, path: string): Value {
  if (typeof v !== 'boolean') throw parseFailed(`parsing Bool failed, expected Boolean, but encountered ${jsonKind(v)}`, path);
  return { kind: 'literal', value: v };
}

/** The operands of operators that do not compare with the column's own type: key names, label queries, distances. */
const TEXT = literal('string', 'Text');
const DISTANCE = literal('number', 'Double');

function columnReference(o: Operand, v: Json, path: string): Value {
  let column: Json;
  let root = false;
  if (typeof v === 'string') column = v;
  else if (Array.isArray(v)) {
    if (v.length === 0) throw badRequest('unexpected', 'path cannot be empty', path);
    if (v.length === 1) column = v[0]!;
    else if (v.length === 2 && v[0] === '$') [root, column] = [true, v[1]!];
    else throw badRequest('not-supported', 'Relationship references are not supported in column comparison RHS', path);
  } else throw badRequest('unexpected', 'a boolean expression JSON must be either a string or an array', path);
  if (typeof column !== 'string') throw parseFailed(`parsing Text failed, expected String, but encountered ${jsonKind(column)}`, path);
  const target = (root ? o.rootColumns : o.columns).get(column);
  if (!target) throw badRequest('not-exists', `column ${JSON.stringify(column)} does not exist`, path);
  if (target.type.display !== o.type.display) {
    throw badRequest(
      'unexpected-payload',
      `incompatible column types: ${JSON.stringify(o.name)} has type ${JSON.stringify(o.type.display)}, but ${JSON.stringify(column)} has type ${JSON.stringify(target.type.display)}`,
      path,
    );
  }
  return { kind: 'column', column, root };
}

type OperandParser = (o: Operand, v: Json, path: string) => Value;
/**
 * The column types an operator applies to, by family. Its error lists the database's own types
 * of those families (`DatabaseCatalog.baseTypes`), as the well-known engine lists PostgreSQL's.
 */
type TypeGuard = { families: readonly TypeFamily[]; arrays?: true };

const STRING: TypeGuard = { families: ['text'] };
const BINARY_JSON: TypeGuard = { families: ['binary-json'] };
const LABEL_TREE: TypeGuard = { families: ['label-tree'] };
const GEOMETRY: TypeGuard = { families: ['geometry'] };
const GEO: TypeGuard = { families: ['geometry', 'geography'] };
const ARRAY_OR_BINARY_JSON: TypeGuard = { families: ['binary-json'], arrays: true };

const accepts = (g: TypeGuard, t: CatalogType) => g.families.includes(t.traits.family) || (g.arrays === true && isArrayType(t));

function expectedTypes(g: TypeGuard, baseTypes: readonly CatalogType[]): string {
  const names = baseTypes.filter((t) => !isArrayType(t) && g.families.includes(t.traits.family)).map((t) => t.name);
  const listed = (names.length ? names : g.families).map((n) => JSON.stringify(n)).join(', ');
  return g.arrays ? `an array or ${listed}` : listed;
}

const own: OperandParser = (o, v, p) => scalar(literalOf(o.type), v, p);
const ownList: OperandParser = (o, v, p) => list(literalOf(o.type), v, p);
const withLiteral =
  (shape: LiteralShape | null, many = false): OperandParser =>
  (_o, v, p) =>
    many ? list(shape, v, p) : scalar(shape, v, p);
const anyJson: OperandParser = (_o, v) => ({ kind: 'literal', value: v });

/** `_st_d_within`: `{distance, from, use_spheroid?}`. */
const distanceWithin: OperandParser = (o, v, p) => {
  if (!isObject(v)) throw parseFailed(`parsing DWithinOp failed, expected Object, but encountered ${jsonKind(v)}`, p);
  if (v.distance === undefined) throw parseFailed('key "distance" not found', p);
  if (v.from === undefined) throw parseFailed('key "from" not found', p);
  checkShape(DISTANCE, v.distance, `${p}.distance`);
  if (v.use_spheroid !== undefined && o.type.traits.family === 'geography') boolean(v.use_spheroid, `${p}.use_spheroid`);
  return { kind: 'literal', value: v };
};

interface OperatorSpec {
  /** Canonical name in the IR. */
  op: string;
  operand: OperandParser;
  guard?: TypeGuard;
}

const SPECS: Record<string, OperatorSpec> = {
  _eq: { op: '_eq', operand: own },
  _ne: { op: '_neq', operand: own },
  _neq: { op: '_neq', operand: own },
  _gt: { op: '_gt', operand: own },
  _lt: { op: '_lt', operand: own },
  _gte: { op: '_gte', operand: own },
  _lte: { op: '_lte', operand: own },
  _in: { op: '_in', operand: ownList },
  _nin: { op: '_nin', operand: ownList },
  _is_null: { op: '_is_null', operand: (_o, v, p) => boolean(v, p) },
  _like: { op: '_like', operand: own, guard: STRING },
  _nlike: { op: '_nlike', operand: own, guard: STRING },
  _ilike: { op: '_ilike', operand: own, guard: STRING },
  _nilike: { op: '_nilike', operand: own, guard: STRING },
  _similar: { op: '_similar', operand: own, guard: STRING },
  _nsimilar: { op: '_nsimilar', operand: own, guard: STRING },
  _regex: { op: '_regex', operand: own, guard: STRING },
  _iregex: { op: '_iregex', operand: own, guard: STRING },
  _nregex: { op: '_nregex', operand: own, guard: STRING },
  _niregex: { op: '_niregex', operand: own, guard: STRING },
  _contains: { op: '_contains', operand: own, guard: ARRAY_OR_BINARY_JSON },
  _contained_in: { op: '_contained_in', operand: own, guard: ARRAY_OR_BINARY_JSON },
  _has_key: { op: '_has_key', operand: withLiteral(TEXT), guard: BINARY_JSON },
  _has_keys_any: { op: '_has_keys_any', operand: withLiteral(TEXT, true), guard: BINARY_JSON },
  _has_keys_all: { op: '_has_keys_all', operand: withLiteral(TEXT, true), guard: BINARY_JSON },
  _ceq: { op: '_ceq', operand: columnReference },
  _cne: { op: '_cne', operand: columnReference },
  _cneq: { op: '_cne', operand: columnReference },
  _cgt: { op: '_cgt', operand: columnReference },
  _clt: { op: '_clt', operand: columnReference },
  _cgte: { op: '_cgte', operand: columnReference },
  _clte: { op: '_clte', operand: columnReference },
  _ancestor: { op: '_ancestor', operand: own, guard: LABEL_TREE },
  _ancestor_any: { op: '_ancestor_any', operand: ownList, guard: LABEL_TREE },
  _descendant: { op: '_descendant', operand: own, guard: LABEL_TREE },
  _descendant_any: { op: '_descendant_any', operand: ownList, guard: LABEL_TREE },
  _matches: { op: '_matches', operand: withLiteral(null), guard: LABEL_TREE },
  _matches_any: { op: '_matches_any', operand: withLiteral(null, true), guard: LABEL_TREE },
  _matches_fulltext: { op: '_matches_fulltext', operand: withLiteral(null), guard: LABEL_TREE },
  _st_contains: { op: '_st_contains', operand: anyJson, guard: GEOMETRY },
  _st_crosses: { op: '_st_crosses', operand: anyJson, guard: GEOMETRY },
  _st_equals: { op: '_st_equals', operand: anyJson, guard: GEOMETRY },
  _st_overlaps: { op: '_st_overlaps', operand: anyJson, guard: GEOMETRY },
  _st_touches: { op: '_st_touches', operand: anyJson, guard: GEOMETRY },
  _st_within: { op: '_st_within', operand: anyJson, guard: GEOMETRY },
  _st_3d_intersects: { op: '_st_3d_intersects', operand: anyJson, guard: GEOMETRY },
  _st_intersects: { op: '_st_intersects', operand: anyJson, guard: GEO },
  _st_d_within: { op: '_st_d_within', operand: distanceWithin, guard: GEO },
  _st_3d_d_within: { op: '_st_3d_d_within', operand: distanceWithin, guard: GEOMETRY },
};

/** The spec of an operator name, `$`-prefixed aliases included. */
function operatorSpec(name: string): OperatorSpec | undefined {
  const key = name.startsWith('$') ? `_${name.slice(1)}` : name;
  return Object.hasOwn(SPECS, key) ? SPECS[key] : undefined;
}

/** The comparisons on one column: `{op: value, ...}`, or a bare value meaning `_eq`. */
export function parseComparisons(o: Operand, v: Json, path: string, opPath: (key: string) => string): ComparisonOp[] {
  if (!isObject(v)) return [{ op: '_eq', value: scalar(literalOf(o.type), v, path) }];
  return Object.entries(v).flatMap(([name, operand]): ComparisonOp[] => {
    const at = opPath(name);
    if (name === '_cast' || name === '$cast') return parseCasts(o, operand, at);
    const spec = operatorSpec(name);
    if (!spec) throw badRequest('unexpected-payload', `Unknown operator: ${name}`, at);
    if (spec.guard && !accepts(spec.guard, o.type)) {
      throw badRequest(
        'unexpected-payload',
        `${JSON.stringify(o.name)} is of type ${JSON.stringify(o.type.display)}; this operator works only on columns of type ${expectedTypes(spec.guard, o.baseTypes)}`,
        at,
      );
    }
    return [{ op: spec.op, value: spec.operand(o, operand, at) }];
  });
}

/** The casts the well-known engine allows a comparison to make, by type family: binary JSON to text, geometry to geography and back. */
const CAST_FAMILIES: Readonly<Partial<Record<TypeFamily, TypeFamily>>> = { geometry: 'geography', geography: 'geometry', 'binary-json': 'text' };

/** `_cast` (`$cast`): `{<type>: {<op>: value, ...}, ...}`, each compared as a value of that type. */
function parseCasts(o: Operand, v: Json, path: string): ComparisonOp[] {
  if (!isObject(v)) throw parseFailed(`parsing HashMap failed, expected Object, but encountered ${jsonKind(v)}`, path);
  return Object.entries(v).map(([to, comparisons]) => {
    const family = CAST_FAMILIES[o.type.traits.family];
    const target = family ? o.baseTypes.find((t) => t.name === to && t.traits.family === family) : undefined;
    if (!target) throw badRequest('unexpected-payload', `cannot cast column of type ${JSON.stringify(o.type.display)} to type ${JSON.stringify(to)}`, path);
    const at = keyPath(path, to);
    return { op: '_cast', to, ops: parseComparisons({ ...o, type: target }, comparisons, at, (k) => keyPath(at, k)) };
  });
}
