/**
 * Selections to one SQL statement per root field, in which PostgreSQL builds the JSON
 * answer (json_build_object / json_agg, relationships as LATERAL subqueries), so the
 * engine never parses or re-serialises rows.
 */
import { TRUE, isTrue, type BoolExp, type Value } from '../../../ir/boolexp.js';
import type { AggregateSelection, Field, FunctionCall, Join, OrderByItem, RootField, RowSource } from '../../../ir/select.js';
import { ident, join, literal, paramFrom, qualified, raw, sql, type Sql } from '../../../sql/fragment.js';
import { renderPg } from '../dialect.js';
import { and, boolExpSql, computedValue, encodeLiteral, joinCondition, literalParam, redacted } from './boolexp.js';
import { Aliases, castType, col, outputValue, type BoolExpEnv, type Scope } from './context.js';
import type { TranslateOptions, TranslatedField } from '../../faces/translator.js';
import type { CatalogType } from '../../../catalog/types.js';
import { streamCursor } from './stream.js';

/** The base rows of a selection, with the order keys it exposes as `__order_<i>`. */
export interface Base {
  sql: Sql;
  orderKeys: { key: Sql; direction: Sql }[];
}

const ORDER_KEY = (i: number) => ident(`__order_${i}`);
/** The table row itself, passed to computed fields (a subquery's whole row is a plain record). */
export const ROW = ident('__row');

/**
 * Where rows come from instead of the table: a function returning rows of it, or a
 * mutation's CTE, whose RETURNING already carries the typed row as `__row`.
 */
export type RowFrom = { kind: 'function'; sql: Sql } | { kind: 'cte'; sql: Sql };

export class Translator {
  readonly aliases = new Aliases();
  readonly sessionVariables = new Set<string>();
  readonly wholeSession = { read: false };
  constructor(readonly options: TranslateOptions) {}

  env(root: Scope): BoolExpEnv {
    return { aliases: this.aliases, root, sessionVariables: this.sessionVariables, wholeSession: this.wholeSession };
  }

  private numberValue(v: Value | null, cap: number | null): Sql | null {
    const given =
      v === null
        ? null
        : v.kind === 'literal'
          ? literalParam(v, encodeLiteral(v.value))
          : v.kind === 'variable'
            ? paramFrom({ kind: 'variable', name: v.name, path: v.path, coerce: 'scalar' })
            : null;
    if (given && cap !== null) return sql`LEAST((${given})::bigint, ${raw(String(cap))})`;
    if (given) return sql`(${given})::bigint`;
    return cap !== null ? raw(String(cap)) : null;
  }

  private orderExpr(item: OrderByItem, scope: Scope, joins: Sql[]): Sql {
    let current = scope;
    for (const hop of item.path) {
      const next: Scope = { alias: this.aliases.next(), table: hop.join.target };
      const conds = [joinCondition(current, next, hop.join.mapping), boolExpSql(hop.permission, next, this.env(next))];
      joins.push(sql`LEFT JOIN LATERAL (SELECT * FROM ${qualified(next.table.schema, next.table.name)} AS ${next.alias} WHERE ${and(conds)} LIMIT 1) AS ${next.alias} ON true`);
      current = next;
    }
    const t = item.target;
    if (t.kind === 'column') return t.visibleWhen ? this.visible(t.visibleWhen, current, col(current, t.column)) : col(current, t.column);
    // The row of a relationship hop is its lateral subquery's: PostgreSQL passes it as the table's row type.
    if (t.kind === 'computed') {
      const value = computedValue(t.call, current, this.env(current));
      return t.visibleWhen ? this.visible(t.visibleWhen, current, value) : value;
    }
    const inner: Scope = { alias: this.aliases.next(), table: t.join.target };
    const conds = [joinCondition(current, inner, t.join.mapping), boolExpSql(t.permission, inner, this.env(inner))];
    const value = () => (t.visibleWhen ? this.visible(t.visibleWhen, inner, col(inner, t.column!)) : col(inner, t.column!));
    const agg = t.fn === 'count' ? raw('count(*)') : sql`${raw(t.fn)}(${value()})`;
    return sql`(SELECT ${agg} FROM ${qualified(inner.table.schema, inner.table.name)} AS ${inner.alias} WHERE ${and(conds)})`;
  }

  /**
   * `SELECT t.*, <order keys> FROM table t WHERE ... ORDER BY ... LIMIT ...`, or with
   * `project`'s select list instead of `t.*`. `needRow`: computed fields read the typed
   * row; it is selected only then, as a whole-row value detoasts every column of every
   * row it is built for.
   */
  base(rows: RowSource, outer: { scope: Scope; join: Join } | null, from: RowFrom | undefined, needRow: boolean, project?: (scope: Scope) => Sql): Base {
    const scope: Scope = { alias: this.aliases.next(), table: rows.table };
    const joins: Sql[] = [];
    const orderKeys = rows.orderBy.map((item) => ({
      key: this.orderExpr(item, scope, joins),
      direction: raw(`${item.direction.toUpperCase()} NULLS ${(item.nulls ?? (item.direction === 'asc' ? 'last' : 'first')).toUpperCase()}`),
    }));
    const conds: Sql[] = [];
    if (outer) conds.push(joinCondition(outer.scope, scope, outer.join.mapping));
    if (!isTrue(rows.permission)) conds.push(boolExpSql(rows.permission, scope, this.env(scope)));
    if (!isTrue(rows.where)) conds.push(boolExpSql(rows.where, scope, this.env(scope)));
    // DISTINCT ON needs the same expressions first in ORDER BY: the leading order keys when there
    // are some (the compiler checked they are these columns), else these, redacted alike.
    const distinctKeys = rows.distinctOn.map((c, i) => orderKeys[i]?.key ?? (c.visibleWhen ? this.visible(c.visibleWhen, scope, col(scope, c.column)) : col(scope, c.column)));
    const distinct = distinctKeys.length > 0 ? sql`DISTINCT ON (${join(distinctKeys, ', ')}) ` : raw('');
    const order = [...distinctKeys.slice(orderKeys.length), ...orderKeys.map((k) => sql`${k.key} ${k.direction}`)];
    const limit = this.numberValue(rows.limit, rows.limitCap);
    const offset = this.numberValue(rows.offset, null);
    const keys = orderKeys.map((k, i) => sql`, ${k.key} AS ${ORDER_KEY(i)}`);
    const source = from?.sql ?? qualified(rows.table.schema, rows.table.name);
    const row = from?.kind === 'cte' || !needRow ? raw('') : sql`, ${scope.alias} AS ${ROW}`;
    const select = project ? project(scope) : sql`${scope.alias}.*${row}`;
    const text = sql`SELECT ${distinct}${select}${join(keys, '')} FROM ${source} AS ${scope.alias} ${join(joins, ' ')} WHERE ${and(conds)}${order.length ? sql` ORDER BY ${join(order, ', ')}` : raw('')}${limit ? sql` LIMIT ${limit}` : raw('')}${offset ? sql` OFFSET ${offset}` : raw('')}`;
    return { sql: text, orderKeys: orderKeys.map((k, i) => ({ key: ORDER_KEY(i), direction: k.direction })) };
  }

  /** The JSON object of `fields` for each row of `scope`, plus the LATERAL joins it needs. */
  object(fields: Field[], scope: Scope): { json: Sql; laterals: Sql[] } {
    const laterals: Sql[] = [];
    const pairs: Sql[] = fields.map((f) => {
      const key = literal(f.alias);
      switch (f.kind) {
        case 'typename':
          return sql`${key}, ${literal(f.typename)}`;
        case 'column': {
          let v = outputValue(col(scope, f.column), f.type, this.options);
          if (f.jsonPath) v = sql`(${v} #> (${this.pathParam(f.jsonPath)})::text[])`;
          if (f.visibleWhen) v = this.visible(f.visibleWhen, scope, v);
          return sql`${key}, ${v}`;
        }
        case 'computed_scalar': {
          let v = outputValue(this.call(f.call, scope), f.returnType, this.options);
          if (f.visibleWhen) v = this.visible(f.visibleWhen, scope, v);
          return sql`${key}, ${v}`;
        }
        case 'object': {
          const alias = this.aliases.next();
          const rows: RowSource = { table: f.join.target, permission: f.permission, where: TRUE, orderBy: [], distinctOn: [], limit: null, offset: null, limitCap: 1 };
          const inner = this.rowsQuery(rows, f.fields, { scope, join: f.join });
          laterals.push(sql`LEFT JOIN LATERAL (${inner.sql}) AS ${alias} ON true`);
          return sql`${key}, ${alias}.root`;
        }
        case 'array': {
          const alias = this.aliases.next();
          laterals.push(sql`LEFT JOIN LATERAL (${this.arrayQuery(f.rows, f.fields, { scope, join: f.join })}) AS ${alias} ON true`);
          return sql`${key}, ${alias}.root`;
        }
        case 'aggregate': {
          const alias = this.aliases.next();
          laterals.push(sql`LEFT JOIN LATERAL (${this.aggregateQuery(f.rows, f.aggregate, { scope, join: f.join })}) AS ${alias} ON true`);
          return sql`${key}, ${alias}.root`;
        }
        case 'computed_set': {
          const alias = this.aliases.next();
          const from: RowFrom = { kind: 'function', sql: this.call(f.call, scope) };
          laterals.push(sql`LEFT JOIN LATERAL (${this.arrayQuery(f.rows, f.fields, null, from)}) AS ${alias} ON true`);
          return sql`${key}, ${alias}.root`;
        }
      }
    });
    return { json: jsonObject(pairs), laterals };
  }

  /** Inherited roles: a column some parents grant is null where none of their filters hold (spec rule 3). */
  protected visible(condition: BoolExp, scope: Scope, value: Sql): Sql {
    return redacted(condition, scope, value, this.env(scope));
  }

  /** `fn(<row>, ($1)::type, (<session>)::json, ...)` in the function's argument order. */
  call(c: FunctionCall, scope: Scope | null): Sql {
    const args = c.args.map((a) => {
      if (a.kind === 'row') return sql`${scope!.alias}.${ROW}`;
      if (a.kind === 'column') return sql`${scope!.alias}.${ident(a.column)}`;
      if (a.kind === 'session') {
        this.wholeSession.read = true;
        return sql`(${paramFrom({ kind: 'session' })})::json`;
      }
      return sql`(${this.argSql(a.value)})::${castType(a.type)}`;
    });
    return sql`${qualified(c.fn.schema, c.fn.name)}(${join(args, ', ')})`;
  }

  private argSql(v: Value): Sql {
    if (v.kind === 'literal') return literalParam(v, encodeLiteral(v.value));
    if (v.kind === 'variable') return paramFrom({ kind: 'variable', name: v.name, path: v.path, coerce: 'scalar' });
    if (v.kind === 'session') {
      this.sessionVariables.add(v.name);
      return paramFrom({ kind: 'session' });
    }
    throw new Error('column values are not function arguments');
  }

  private pathParam(v: Value): Sql {
    if (v.kind === 'literal') return literalParam(v, v.value);
    if (v.kind === 'variable') return paramFrom({ kind: 'variable', name: v.name, path: v.path, coerce: 'array' });
    throw new Error('a json path is a literal or a variable');
  }

  /** Rows with `root` (the JSON of each) and the order keys, ready to aggregate. */
  rowsQuery(rows: RowSource, fields: Field[], outer: { scope: Scope; join: Join } | null, from?: RowFrom): { sql: Sql; orderKeys: Base['orderKeys'] } {
    // Flat when every field is a column: the JSON is built in the same SELECT that filters,
    // orders and limits (one level less for the planner). Decided before building anything,
    // so each subtree is translated once (linear in the depth of the query).
    if (fields.every(isPlainField)) {
      return this.base(rows, outer, from, false, (scope) => sql`${this.object(fields, scope).json} AS root`);
    }
    const base = this.base(rows, outer, from, readsRow(fields));
    const scope: Scope = { alias: this.aliases.next(), table: rows.table };
    const obj = this.object(fields, scope);
    const keys = base.orderKeys.map((k) => sql`, ${scope.alias}.${k.key}`);
    // No ORDER BY here: whoever aggregates these rows orders them by the keys (json_agg ... ORDER BY).
    return {
      sql: sql`SELECT ${obj.json} AS root${join(keys, '')} FROM (${base.sql}) AS ${scope.alias} ${join(obj.laterals, ' ')}`,
      orderKeys: base.orderKeys,
    };
  }

  /** `also`: more columns over the same rows (`__s`), given their order keys (a stream's new cursor). */
  arrayQuery(rows: RowSource, fields: Field[], outer: { scope: Scope; join: Join } | null, from?: RowFrom, also?: (s: Sql, orderKeys: Base['orderKeys']) => Sql): Sql {
    const q = this.rowsQuery(rows, fields, outer, from);
    const s = ident('__s');
    const order = q.orderKeys.length ? sql` ORDER BY ${join(q.orderKeys.map((k) => sql`${s}.${k.key} ${k.direction}`), ', ')}` : raw('');
    return sql`SELECT coalesce(json_agg(${s}.root${order}), '[]') AS root${also ? sql`, ${also(s, q.orderKeys)}` : raw('')} FROM (${q.sql}) AS ${s}`;
  }

  /**
   * Aggregates see every row the role's filter lets through; the permission's row
   * limit caps only `nodes` (as the well-known engine does).
   */
  aggregateQuery(rows: RowSource, selection: AggregateSelection, outer: { scope: Scope; join: Join } | null, from?: RowFrom): Sql {
    const base = this.base({ ...rows, limitCap: null }, outer, from, selection.some((i) => i.kind === 'nodes' && readsRow(i.fields)));
    const scope: Scope = { alias: this.aliases.next(), table: rows.table };
    const laterals: Sql[] = [];
    const order = base.orderKeys.length ? sql` ORDER BY ${join(base.orderKeys.map((k) => sql`${scope.alias}.${k.key} ${k.direction}`), ', ')}` : raw('');
    const shown = (column: string, visibleWhen: BoolExp | null) => (visibleWhen ? this.visible(visibleWhen, scope, col(scope, column)) : col(scope, column));
    const pairs = selection.map((item) => {
      const key = literal(item.alias);
      if (item.kind === 'typename') return sql`${key}, ${literal(item.typename)}`;
      if (item.kind === 'nodes') {
        if (rows.limitCap !== null) return sql`${key}, (${this.arrayQuery(rows, item.fields, outer, from)})`;
        const obj = this.object(item.fields, scope);
        laterals.push(...obj.laterals);
        return sql`${key}, coalesce(json_agg(${obj.json}${order}), '[]')`;
      }
      const fns = item.fields.map((f) => {
        const k = literal(f.alias);
        if (f.kind === 'typename') return sql`${k}, ${literal(f.typename)}`;
        if (f.kind === 'count') {
          const cols = f.columns.map((c) => shown(c.column, c.visibleWhen));
          const target = cols.length === 0 ? raw('*') : cols.length === 1 ? cols[0]! : sql`(${join(cols, ', ')})`;
          return sql`${k}, count(${f.distinct ? raw('DISTINCT ') : raw('')}${target})`;
        }
        // sum of bigint is numeric, avg and the variance family are numeric or double: all wide.
        const resultType = (t: CatalogType): CatalogType => (f.fn === 'max' || f.fn === 'min' ? t : f.fn === 'sum' && (t.name === 'int2' || t.name === 'int4') ? { ...t, name: 'int8' } : { ...t, name: 'numeric' });
        const inner = f.columns.map((c) =>
          'typename' in c ? sql`${literal(c.alias)}, ${literal(c.typename)}` : sql`${literal(c.alias)}, ${outputValue(sql`${raw(f.fn)}(${shown(c.column, c.visibleWhen)})`, resultType(c.type), this.options)}`,
        );
        return sql`${k}, ${jsonObject(inner)}`;
      });
      return sql`${key}, ${jsonObject(fns)}`;
    });
    return sql`SELECT ${jsonObject(pairs)} AS root FROM (${base.sql}) AS ${scope.alias} ${join(laterals, ' ')}`;
  }
}

/** A field read from the row itself: no LATERAL join, no typed row. */
const isPlainField = (f: Field) => f.kind === 'typename' || f.kind === 'column';

export const readsRow = (fields: Field[]) => fields.some((f) => f.kind === 'computed_scalar' || f.kind === 'computed_set');

/** json_build_object takes at most 100 arguments: larger objects are built in chunks and merged (jsonb: keys come out sorted). */
function jsonObject(pairs: Sql[]): Sql {
  if (pairs.length <= 50) return sql`json_build_object(${join(pairs, ', ')})`;
  const chunks: Sql[] = [];
  for (let i = 0; i < pairs.length; i += 50) chunks.push(sql`jsonb_build_object(${join(pairs.slice(i, i + 50), ', ')})`);
  return sql`(${join(chunks, ' || ')})::json`;
}

/**
 * A join step's statement: the key tuples (`join-keys`, a JSON array) as rows in their order,
 * each joined laterally to its rows of the target table; one JSON value per tuple.
 */
function joinQuery(t: Translator, field: Extract<RootField, { kind: 'join' }>): Sql {
  const keys: Scope = { alias: t.aliases.next(), table: field.rows.table };
  const k = t.aliases.next();
  const columns = field.keys.map((key) => sql`(${k}.v ->> ${literal(key.child)})::${castType(key.type)} AS ${ident(key.child)}`);
  const tuples = sql`SELECT ${join(columns, ', ')}, ${k}.ord FROM json_array_elements((${paramFrom({ kind: 'join-keys' })})::json) WITH ORDINALITY AS ${k}(v, ord)`;
  const outer = { scope: keys, join: { target: field.rows.table, mapping: field.keys.map((key): [string, string] => [key.child, key.column]) } };
  const inner = field.many ? t.arrayQuery(field.rows, field.fields, outer) : t.rowsQuery({ ...field.rows, limitCap: 1 }, field.fields, outer).sql;
  const j = t.aliases.next();
  return sql`SELECT coalesce(json_agg(${j}.root ORDER BY ${keys.alias}.ord), '[]') AS root FROM (${tuples}) AS ${keys.alias} LEFT JOIN LATERAL (${inner}) AS ${j} ON true`;
}

/** The statement for one root field, before rendering, and what it reads of the session. */
export function rootFieldSql(field: Exclude<RootField, { kind: 'typename' }>, options: TranslateOptions): { text: Sql; sessionVariables: string[]; wholeSession: boolean } {
  const t = new Translator(options);
  let text: Sql;
  switch (field.kind) {
    case 'select':
      text = t.arrayQuery(field.rows, field.fields, null, field.from && { kind: 'function', sql: t.call(field.from, null) });
      break;
    case 'select_one':
      // At most one row (the row source's cap is 1); none answers null.
      text = t.rowsQuery(field.rows, field.fields, null).sql;
      break;
    case 'aggregate':
      text = t.aggregateQuery(field.rows, field.aggregate, null, field.from && { kind: 'function', sql: t.call(field.from, null) });
      break;
    case 'stream':
      text = t.arrayQuery(field.rows, field.fields, null, undefined, streamCursor(field));
      break;
    case 'join':
      text = joinQuery(t, field);
      break;
  }
  return { text, sessionVariables: [...t.sessionVariables], wholeSession: t.wholeSession.read };
}

/** The statement for one root field; its single row's single column is the field's JSON. */
export function translateRootField(field: Exclude<RootField, { kind: 'typename' }>, options: TranslateOptions): TranslatedField {
  const { text, ...reads } = rootFieldSql(field, options);
  return { ...renderPg(text), ...reads };
}
