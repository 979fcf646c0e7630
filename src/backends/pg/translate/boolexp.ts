/**
 * Boolean expressions to SQL. Relationships become EXISTS subqueries; values become
 * parameters cast to the column's type; session variables are read from the one
 * session parameter (so a plan does not depend on them).
 */
import type { CatalogType } from '../../../catalog/types.js';
import { isCast, type BoolExp, type ComparisonOp, type ComputedCall, type Value, type ValueComparison } from '../../../ir/boolexp.js';
import { ident, join, literal, paramFrom, qualified, raw, sql, type Sql } from '../../../sql/fragment.js';
import { geoComparison } from './geo.js';
import { castType, col, type BoolExpEnv, type Scope } from './context.js';
import { castTarget, TEXT_TYPE } from '../type-traits.js';

const TRUE_SQL = raw('true');
const FALSE_SQL = raw('false');

const BINARY: Record<string, string> = {
  _eq: '=',
  _neq: '<>',
  _gt: '>',
  _lt: '<',
  _gte: '>=',
  _lte: '<=',
  _like: 'LIKE',
  _nlike: 'NOT LIKE',
  _ilike: 'ILIKE',
  _nilike: 'NOT ILIKE',
  _similar: 'SIMILAR TO',
  _nsimilar: 'NOT SIMILAR TO',
  _regex: '~',
  _iregex: '~*',
  _nregex: '!~',
  _niregex: '!~*',
  _contains: '@>',
  _contained_in: '<@',
  _ancestor: '@>',
  _descendant: '<@',
};

const COLUMN_COMPARISON: Record<string, string> = { _ceq: '=', _cne: '<>', _cneq: '<>', _cgt: '>', _clt: '<', _cgte: '>=', _clte: '<=' };

/** A value as SQL of the given type. */
export function valueSql(v: Value, type: Sql, scope: Scope, env: BoolExpEnv): Sql {
  switch (v.kind) {
    case 'literal': {
      // A PostgreSQL array parameter goes as a list (node-postgres writes the array literal); json as JSON text.
      const isArray = typeof type.parts[0] === 'string' && type.parts[0].endsWith('[]') && Array.isArray(v.value);
      const value = isJsonType(type) ? JSON.stringify(v.value) : isArray ? (v.value as unknown[]).map(encodeLiteral) : encodeLiteral(v.value);
      return sql`(${literalParam(v, value)})::${type}`;
    }
    case 'session':
      env.sessionVariables.add(v.name);
      return sql`((${paramFrom({ kind: 'session' })})::json->>${literal(v.name)})::${type}`;
    case 'variable':
      return sql`(${paramFrom({ kind: 'variable', name: v.name, path: v.path, coerce: isJsonType(type) ? 'json' : 'scalar' })})::${type}`;
    case 'column':
      return col(v.root ? env.root : scope, v.column);
    case 'cursor':
      return sql`(${paramFrom({ kind: 'cursor' })})::${type}`;
  }
}

/**
 * A literal's value as a parameter, marked as written in the query when it is (a subscription
 * lifts it into a synthetic variable, which the cohort's JSON holds as text: a scalar, or a
 * list of them, written as an array's text by `translateLiveField`).
 */
export function literalParam(v: Extract<Value, { kind: 'literal' }>, value: unknown): Sql {
  return paramFrom({ kind: 'literal', value, ...(v.query && liftable(value) ? { query: true as const } : {}) });
}

const liftable = (value: unknown): boolean => typeof value === 'string' || (Array.isArray(value) && value.every((x) => x === null || typeof x === 'string'));

const isJsonType = (type: Sql) => type.parts[0] === 'json' || type.parts[0] === 'jsonb';

/** PostgreSQL text for a JSON literal (objects and arrays as JSON, for json/jsonb). */
export function encodeLiteral(v: unknown): unknown {
  if (v === null || typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

function listSql(v: Value, elementType: CatalogType, scope: Scope, env: BoolExpEnv): Sql {
  const arrayType = raw(`${elementType.display}[]`);
  if (v.kind === 'literal' && Array.isArray(v.value)) {
    return sql`(${literalParam(v, v.value.map(encodeLiteral))})::${arrayType}`;
  }
  if (v.kind === 'variable') return sql`(${paramFrom({ kind: 'variable', name: v.name, path: v.path, coerce: 'array' })})::${arrayType}`;
  return valueSql(v, arrayType, scope, env);
}

function comparison(lhs: Sql, type: CatalogType, op: ValueComparison, scope: Scope, env: BoolExpEnv): Sql {
  if (op.op.startsWith('_st_')) {
    const geo = geoComparison(lhs, type, op.op, op.value, env);
    if (geo) return geo;
  }
  const t = castType(type);
  const binary = BINARY[op.op];
  if (binary) return sql`(${lhs} ${raw(binary)} ${valueSql(op.value, t, scope, env)})`;
  const cmp = COLUMN_COMPARISON[op.op];
  if (cmp) return sql`(${lhs} ${raw(cmp)} ${valueSql(op.value, t, scope, env)})`;
  switch (op.op) {
    case '_in':
      return sql`(${lhs} = ANY(${listSql(op.value, type, scope, env)}))`;
    case '_nin':
      return sql`(${lhs} <> ALL(${listSql(op.value, type, scope, env)}))`;
    case '_is_null': {
      if (op.value.kind === 'literal') return op.value.value === true ? sql`(${lhs} IS NULL)` : sql`(${lhs} IS NOT NULL)`;
      return sql`((${lhs} IS NULL) = ${valueSql(op.value, raw('boolean'), scope, env)})`;
    }
    case '_has_key':
      return sql`(${lhs} ? ${valueSql(op.value, raw('text'), scope, env)})`;
    case '_has_keys_any':
      return sql`(${lhs} ?| ${listSql(op.value, TEXT_TYPE, scope, env)})`;
    case '_has_keys_all':
      return sql`(${lhs} ?& ${listSql(op.value, TEXT_TYPE, scope, env)})`;
    case '_matches':
      return sql`(${lhs} ~ ${valueSql(op.value, raw('lquery'), scope, env)})`;
    case '_matches_any':
      return sql`(${lhs} ? ${valueSql(op.value, raw('lquery[]'), scope, env)})`;
    case '_matches_fulltext':
      return sql`(${lhs} @ ${valueSql(op.value, raw('ltxtquery'), scope, env)})`;
    case '_ancestor_any':
      return sql`(${lhs} @> ${valueSql(op.value, raw('ltree[]'), scope, env)})`;
    case '_descendant_any':
      return sql`(${lhs} <@ ${valueSql(op.value, raw('ltree[]'), scope, env)})`;
  }
  throw new Error(`unsupported comparison operator ${op.op}`);
}


function columnOps(lhs: Sql, type: CatalogType, ops: ComparisonOp[], scope: Scope, env: BoolExpEnv): Sql {
  const parts = ops.map((op) => {
    if (isCast(op)) {
      const to = castTarget(op.to);
      return columnOps(sql`(${lhs})::${raw(to.display)}`, to, op.ops, scope, env);
    }
    return comparison(lhs, type, op, scope, env);
  });
  return and(parts);
}

export function and(parts: Sql[]): Sql {
  if (parts.length === 0) return TRUE_SQL;
  if (parts.length === 1) return parts[0]!;
  return sql`(${join(parts, ' AND ')})`;
}

function or(parts: Sql[]): Sql {
  if (parts.length === 0) return FALSE_SQL;
  if (parts.length === 1) return parts[0]!;
  return sql`(${join(parts, ' OR ')})`;
}

export function joinCondition(outer: Scope, inner: Scope, mapping: [string, string][]): Sql {
  return and(mapping.map(([a, b]) => sql`(${col(outer, a)} = ${col(inner, b)})`));
}

/**
 * A computed field's function called on the row of `scope`: a scalar's value, or a set's rows.
 * The row goes first unless the function takes it later (then by name, as the session argument).
 */
export function computedValue(call: ComputedCall, scope: Scope, env: BoolExpEnv): Sql {
  const { fn, tableArgument, sessionArgument } = call;
  if (sessionArgument) env.wholeSession.read = true;
  const row = tableArgument ? sql`${ident(tableArgument)} => ${scope.alias}` : scope.alias;
  const session = sessionArgument ? sql`, ${ident(sessionArgument)} => (${paramFrom({ kind: 'session' })})::json` : raw('');
  return sql`${qualified(fn.schema, fn.name)}(${row}${session})`;
}

/** Inherited roles: a value some parents grant is NULL where none of their filters hold (spec rule 3). */
export function redacted(condition: BoolExp, scope: Scope, value: Sql, env: BoolExpEnv): Sql {
  return sql`CASE WHEN ${boolExpSql(condition, scope, env)} THEN ${value} ELSE NULL END`;
}

export function boolExpSql(b: BoolExp, scope: Scope, env: BoolExpEnv): Sql {
  switch (b.kind) {
    case 'and':
      return and(b.items.map((x) => boolExpSql(x, scope, env)));
    case 'or':
      return or(b.items.map((x) => boolExpSql(x, scope, env)));
    case 'not':
      return sql`(NOT ${boolExpSql(b.item, scope, env)})`;
    case 'column': {
      const value = b.visibleWhen ? redacted(b.visibleWhen, scope, col(scope, b.column), env) : col(scope, b.column);
      return columnOps(value, b.type, b.ops, scope, env);
    }
    case 'computed': {
      const value = computedValue(b.call, scope, env);
      return columnOps(b.visibleWhen ? redacted(b.visibleWhen, scope, value, env) : value, b.call.returnType, b.ops, scope, env);
    }
    case 'relationship': {
      const inner: Scope = { alias: env.aliases.next(), table: b.join.target };
      const conds = [joinCondition(scope, inner, b.join.mapping), boolExpSql(b.where, inner, env)];
      if (b.permission) conds.push(boolExpSql(b.permission, inner, env));
      return sql`EXISTS (SELECT 1 FROM ${qualified(inner.table.schema, inner.table.name)} AS ${inner.alias} WHERE ${and(conds)})`;
    }
    case 'computed_rows': {
      const inner: Scope = { alias: env.aliases.next(), table: b.table };
      return sql`EXISTS (SELECT 1 FROM ${computedValue(b.call, scope, env)} AS ${inner.alias} WHERE ${boolExpSql(b.where, inner, env)})`;
    }
    case 'exists': {
      const inner: Scope = { alias: env.aliases.next(), table: b.table };
      return sql`EXISTS (SELECT 1 FROM ${qualified(b.table.schema, b.table.name)} AS ${inner.alias} WHERE ${boolExpSql(b.where, inner, env)})`;
    }
  }
}
