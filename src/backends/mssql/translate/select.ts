/**
 * A query root field as one T-SQL statement whose single row's single column ([root]) is the
 * field's JSON, built by SQL Server with FOR JSON PATH (INCLUDE_NULL_VALUES keeps null
 * fields; WITHOUT_ARRAY_WRAPPER makes an object; nested relationships go through JSON_QUERY
 * so they nest as JSON, not as strings). Every value is a parameter (@p1...), identifiers are
 * bracket-quoted; limits and offsets are integers of the plan, written as numbers.
 */
import type { AggregateField, AggregateSelection, Field, OrderByItem, RootField, RowSource } from '../../../ir/select.js';
import type { CatalogType } from '../../../catalog/types.js';
import { isTrue, type BoolExp, type Value } from '../../../ir/boolexp.js';
import { isSql, join, literal, paramFrom, raw, sql, type Sql } from '../../../sql/fragment.js';
import { sessionVariablesOf } from '../../../ir/session-variables.js';
import type { TranslatedField, TranslateOptions } from '../../faces/translator.js';
import { bracket, bracketQualified, renderMssql } from '../dialect.js';
import { joinCondition as joinWith } from '../../../sql/boolexp-compiler.js';
import { StatementScopes } from '../../../sql/statement-scopes.js';
import { castType, col, MSSQL_BOOLEXP, notSupported, type Scope } from './context.js';

const joinCondition = (j: Parameters<typeof joinWith>[1], outer: Scope, inner: Scope) => joinWith(MSSQL_BOOLEXP, j, outer, inner);

export const OBJECT = raw('FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER');
export const ARRAY = raw('FOR JSON PATH, INCLUDE_NULL_VALUES');

/** Conditions relating a scope's rows to the row they are fetched for (relationships). */
type Related = (scope: Scope) => Sql[];
const NONE: Related = () => [];

export class SelectCompiler extends StatementScopes {
  /** Scopes that range over something else than their table (a mutation's changed rows, `@out`). */
  protected readonly readFrom = new WeakMap<Scope, Sql>();

  constructor(
    private readonly options: TranslateOptions,
    table: Scope['table'],
  ) {
    super(MSSQL_BOOLEXP, bracket, table);
  }

  /** `SELECT <list> FROM <table> WHERE <permission and where> [ORDER BY ... OFFSET ... FETCH ...]`, without FOR JSON. */
  rows(rows: RowSource, scope: Scope, list: Sql, extra: Related = NONE, ordered = true): Sql {
    if (rows.distinctOn.length > 0) throw notSupported('distinct_on');
    const where = this.conditions([...extra(scope), rows.permission, rows.where], scope);
    const limit = this.limitOf(rows);
    const offset = this.integer(rows.offset, 'offset');
    const order = ordered ? rows.orderBy.flatMap((o) => this.orderItem(o, scope)) : [];
    let tail = order.length > 0 ? sql` ORDER BY ${join(order, ', ')}` : raw('');
    if (limit !== null || offset !== null) {
      // OFFSET ... FETCH needs an ORDER BY; without one the order is the database's.
      if (order.length === 0) tail = raw(' ORDER BY (SELECT NULL)');
      tail = sql`${tail} OFFSET ${raw(String(offset ?? 0))} ROWS${limit !== null ? sql` FETCH NEXT ${raw(String(limit))} ROWS ONLY` : raw('')}`;
    }
    const from = this.readFrom.get(scope) ?? bracketQualified(scope.table.schema, scope.table.name);
    return sql`SELECT ${list} FROM ${from} AS ${scope.alias}${where}${tail}`;
  }

  /** ` WHERE c1 AND c2 ...` (conditions already SQL, or boolean expressions over `scope`; empty ones left out), or nothing. */
  protected conditions(items: (Sql | BoolExp)[], scope: Scope): Sql {
    const sqls = items.flatMap((c) => (isSql(c) ? [c] : isTrue(c) ? [] : [this.bool.compile(c, scope)]));
    return sqls.length === 0 ? raw('') : sql` WHERE ${join(sqls.map((c) => sql`(${c})`), ' AND ')}`;
  }

  /** The query's limit capped by the permission's. */
  private limitOf(rows: RowSource): number | null {
    const asked = this.integer(rows.limit, 'limit');
    if (asked === null) return rows.limitCap;
    return rows.limitCap === null ? asked : Math.min(asked, rows.limitCap);
  }

  private integer(v: Value | null, what: string): number | null {
    if (v === null) return null;
    if (v.kind !== 'literal' || typeof v.value !== 'number' || !Number.isSafeInteger(v.value) || v.value < 0) throw notSupported(`a ${what} given by a variable`);
    return v.value;
  }

  private orderItem(o: OrderByItem, scope: Scope): Sql[] {
    let value: Sql;
    let current = scope;
    const conditions: Sql[] = [];
    const tables: Sql[] = [];
    for (const step of o.path) {
      const next = this.scope(step.join.target);
      tables.push(sql`${bracketQualified(next.table.schema, next.table.name)} AS ${next.alias}`);
      conditions.push(joinCondition(step.join, current, next), this.bool.compile(step.permission, next));
      current = next;
    }
    const t = o.target;
    if (t.kind === 'column') {
      const c = col(current, t.column);
      value = t.visibleWhen ? sql`CASE WHEN ${this.bool.compile(t.visibleWhen, current)} THEN ${c} ELSE NULL END` : c;
    } else if (t.kind === 'computed') {
      throw notSupported('ordering by a computed field');
    } else {
      const inner = this.scope(t.join.target);
      const fn = t.fn === 'count' ? raw('COUNT(*)') : sql`${raw(t.fn.toUpperCase())}(${col(inner, t.column!)})`;
      value = sql`(SELECT ${fn} FROM ${bracketQualified(inner.table.schema, inner.table.name)} AS ${inner.alias} WHERE (${joinCondition(t.join, current, inner)}) AND (${this.bool.compile(t.permission, inner)}))`;
    }
    if (tables.length > 0) {
      value = sql`(SELECT TOP 1 ${value} FROM ${join(tables, ', ')} WHERE ${join(conditions.map((c) => sql`(${c})`), ' AND ')})`;
    }
    const direction = raw(o.direction === 'desc' ? 'DESC' : 'ASC');
    // SQL Server puts NULLs first ascending and last descending; an explicit `nulls` sorts on IS NULL first.
    const nullsFirst = o.nulls ?? (o.direction === 'desc' ? 'first' : 'last');
    return [sql`CASE WHEN ${value} IS NULL THEN ${raw(nullsFirst === 'first' ? '0' : '1')} ELSE ${raw(nullsFirst === 'first' ? '1' : '0')} END`, sql`${value} ${direction}`];
  }

  output(value: Sql, type: CatalogType): Sql {
    return this.options.stringifyNumeric && type.traits.wide ? sql`CAST(${value} AS nvarchar(max))` : value;
  }

  /** The select list of a row's fields (each aliased with its GraphQL alias). */
  fields(fields: Field[], scope: Scope): Sql {
    const items = fields.map((f): Sql => {
      const as = bracket(f.alias);
      switch (f.kind) {
        case 'typename':
          return sql`${paramFrom({ kind: 'literal', value: f.typename, query: true })} AS ${as}`;
        case 'column': {
          if (f.jsonPath) throw notSupported('a JSON path argument');
          const c = this.output(col(scope, f.column), f.type);
          return sql`${f.visibleWhen ? sql`CASE WHEN ${this.bool.compile(f.visibleWhen, scope)} THEN ${c} ELSE NULL END` : c} AS ${as}`;
        }
        case 'object': {
          const inner = this.scope(f.join.target);
          const where = this.conditions([joinCondition(f.join, scope, inner), f.permission], inner);
          const body = sql`SELECT ${this.fields(f.fields, inner)} FROM ${bracketQualified(inner.table.schema, inner.table.name)} AS ${inner.alias}${where} ${OBJECT}`;
          return sql`JSON_QUERY((${body})) AS ${as}`;
        }
        case 'array': {
          const inner = this.scope(f.join.target);
          const body = this.rows(f.rows, inner, this.fields(f.fields, inner), (s) => [joinCondition(f.join, scope, s)]);
          return sql`JSON_QUERY(ISNULL((${body} ${ARRAY}), N'[]')) AS ${as}`;
        }
        case 'aggregate': {
          return sql`JSON_QUERY((${this.aggregate(f.rows, f.aggregate, f.join.target, (s) => [joinCondition(f.join, scope, s)])})) AS ${as}`;
        }
        case 'computed_scalar':
        case 'computed_set':
          throw notSupported('computed fields');
      }
    });
    return items.length > 0 ? join(items, ', ') : raw('NULL AS [__empty]');
  }

  /** An aggregate object: `aggregate` computed over the rows (a derived table), `nodes` as an array of them. */
  aggregate(rows: RowSource, selection: AggregateSelection, table: Scope['table'], extra: Related = NONE): Sql {
    const parts = selection.map((s): Sql => {
      const as = bracket(s.alias);
      if (s.kind === 'typename') return sql`${paramFrom({ kind: 'literal', value: s.typename, query: true })} AS ${as}`;
      if (s.kind === 'nodes') {
        const inner = this.scope(table);
        const body = this.rows(rows, inner, this.fields(s.fields, inner), extra);
        return sql`JSON_QUERY(ISNULL((${body} ${ARRAY}), N'[]')) AS ${as}`;
      }
      const inner = this.scope(table);
      // The rows' order matters to the aggregate only when it pages them.
      const paged = rows.limit !== null || rows.offset !== null || rows.limitCap !== null;
      const derived = this.rows(rows, inner, raw(`${inner.alias.parts[0] as string}.*`), extra, paged);
      const r = this.scope(table);
      const list = join(s.fields.flatMap((f) => this.aggregateField(f, r)), ', ');
      return sql`JSON_QUERY((SELECT ${list} FROM (${derived}) AS ${r.alias} ${OBJECT})) AS ${as}`;
    });
    return sql`SELECT ${parts.length > 0 ? join(parts, ', ') : raw('NULL AS [__empty]')} ${OBJECT}`;
  }

  /** The columns of one aggregate field; dotted aliases make FOR JSON PATH nest them (`[max.price]`). */
  private aggregateField(f: AggregateField, r: Scope): Sql[] {
    const as = (name: string) => bracket(name);
    switch (f.kind) {
      case 'typename':
        return [sql`${paramFrom({ kind: 'literal', value: f.typename, query: true })} AS ${as(f.alias)}`];
      case 'count': {
        const visible = f.columns.map((c) => (c.visibleWhen ? sql`CASE WHEN ${this.bool.compile(c.visibleWhen, r)} THEN ${col(r, c.column)} ELSE NULL END` : col(r, c.column)));
        if (visible.length > 1) throw notSupported('count over several columns');
        const arg = visible.length === 0 ? raw('*') : f.distinct ? sql`DISTINCT ${visible[0]!}` : visible[0]!;
        return [sql`COUNT(${arg}) AS ${as(f.alias)}`];
      }
      case 'fn':
        return f.columns.map((c) => {
          const alias = as(`${f.alias}.${c.alias}`);
          if ('typename' in c) return sql`${paramFrom({ kind: 'literal', value: c.typename, query: true })} AS ${alias}`;
          const fn = { avg: 'AVG', sum: 'SUM', min: 'MIN', max: 'MAX', stddev: 'STDEV', stddev_samp: 'STDEV', stddev_pop: 'STDEVP', variance: 'VAR', var_samp: 'VAR', var_pop: 'VARP' }[f.fn];
          if (!fn) throw notSupported(`the aggregate ${f.fn}`);
          const v = c.visibleWhen ? sql`CASE WHEN ${this.bool.compile(c.visibleWhen, r)} THEN ${col(r, c.column)} ELSE NULL END` : col(r, c.column);
          // AVG of an integer column is an integer in SQL Server; GraphQL's avg is a Float.
          const arg = fn === 'AVG' ? sql`CAST(${v} AS float)` : v;
          return sql`${this.output(sql`${raw(fn)}(${arg})`, c.type)} AS ${alias}`;
        });
    }
  }
}

/**
 * A join step's statement (a `to_source` remote relationship into this source): the key
 * tuples (`join-keys`, a JSON array of objects) read with OPENJSON, `[key]` their position;
 * each tuple's rows as JSON (an object or null; an array when `many`); and those values as
 * one JSON array in the tuples' order, the answer a join step gives (`execute/join.ts`).
 * FOR JSON only makes arrays of objects, so STRING_AGG joins the values (SQL Server 2017);
 * the values are a derived table because an aggregate cannot take a subquery.
 */
function joinSql(compiler: SelectCompiler, field: Extract<RootField, { kind: 'join' }>): Sql {
  const keys = compiler.scope(field.rows.table);
  const columns = field.keys.map((k) => {
    // The same fixed path form as a session variable's (`sessionValue`).
    if (/["\\]/.test(k.child)) throw notSupported(`the column name ${JSON.stringify(k.child)} in a remote relationship`);
    return sql`CAST(JSON_VALUE([value], ${literal(`$."${k.child}"`)}) AS ${castType(k.type)}) AS ${bracket(k.child)}`;
  });
  const tuples = sql`SELECT CAST([key] AS int) AS [__ord], ${join(columns, ', ')} FROM OPENJSON(${paramFrom({ kind: 'join-keys' })})`;
  // The target's rows are the statement's root (a permission's `$` column comparisons read them).
  const inner = compiler.root;
  const related = (s: Scope) => [joinCondition({ target: field.rows.table, mapping: field.keys.map((k): [string, string] => [k.child, k.column]) }, keys, s)];
  const rows = compiler.rows(field.many ? field.rows : { ...field.rows, limitCap: 1 }, inner, compiler.fields(field.fields, inner), related);
  const value = field.many ? sql`ISNULL((${rows} ${ARRAY}), N'[]')` : sql`ISNULL((${rows} ${OBJECT}), N'null')`;
  const values = compiler.scope(field.rows.table);
  const list = sql`STRING_AGG(${values.alias}.[value], N',') WITHIN GROUP (ORDER BY ${values.alias}.[__ord])`;
  return sql`SELECT N'[' + ISNULL(${list}, N'') + N']' AS [root] FROM (SELECT ${keys.alias}.[__ord], ${value} AS [value] FROM (${tuples}) AS ${keys.alias}) AS ${values.alias}`;
}

/** The statement of one query root field, before rendering (a live query renders it twice). */
export function rootFieldSql(field: Exclude<RootField, { kind: 'typename' }>, options: TranslateOptions): Sql {
  if ('from' in field && field.from) throw notSupported('tracked functions');
  if (field.kind === 'stream') throw notSupported('streaming subscriptions');
  const compiler = new SelectCompiler(options, field.rows.table);
  if (field.kind === 'join') return joinSql(compiler, field);
  const scope = compiler.root;
  let body: Sql;
  if (field.kind === 'aggregate') {
    body = compiler.aggregate(field.rows, field.aggregate, field.rows.table);
  } else {
    const rows = compiler.rows(field.rows, scope, compiler.fields(field.fields, scope));
    body = field.kind === 'select_one' ? sql`${rows} ${OBJECT}` : sql`ISNULL((${rows} ${ARRAY}), N'[]')`;
  }
  return field.kind === 'select' ? sql`SELECT ${body} AS [root]` : sql`SELECT (${body}) AS [root]`;
}

/** The statement of one query root field. */
export function translateRootField(field: Exclude<RootField, { kind: 'typename' }>, options: TranslateOptions): TranslatedField {
  const rendered = renderMssql(rootFieldSql(field, options));
  return { ...rendered, sessionVariables: sessionVariablesOf(field), wholeSession: false };
}
