/**
 * A query root field as one GoogleSQL statement whose single row's `root` column is the field's
 * JSON text: rows as `ARRAY(SELECT AS STRUCT ...)`, an object relationship as a `SELECT AS STRUCT
 * ... LIMIT 1` subquery, aggregates as STRUCTs, all turned into JSON by `TO_JSON_STRING`. Every
 * value is a named parameter (@p1...), identifiers are in backticks; limits and offsets are
 * integers of the plan. Read-only: BigQuery sources have no mutations or subscriptions.
 */
import { isTrue, type BoolExp, type Value } from '../../../ir/boolexp.js';
import type { AggregateField, AggregateSelection, Field, FunctionCall, OrderByItem, RootField, RowSource } from '../../../ir/select.js';
import type { CatalogType, QualifiedName } from '../../../catalog/types.js';
import { joinCondition as joinWith } from '../../../sql/boolexp-compiler.js';
import { StatementScopes } from '../../../sql/statement-scopes.js';
import { isSql, join, literal, paramFrom, raw, sql, type Sql } from '../../../sql/fragment.js';
import { sessionVariablesOf } from '../../../ir/session-variables.js';
import type { TranslatedField, TranslateOptions } from '../../faces/translator.js';
import { backtick, backtickQualified, renderBigQuery } from '../dialect.js';
import { BIGQUERY_BOOLEXP, castType, col, jsonKey, notSupported, type Scope } from './context.js';

const joinCondition = (j: Parameters<typeof joinWith>[1], outer: Scope, inner: Scope) => joinWith(BIGQUERY_BOOLEXP, j, outer, inner);
const AGGREGATES: Record<string, string> = { avg: 'AVG', sum: 'SUM', min: 'MIN', max: 'MAX', stddev: 'STDDEV', stddev_samp: 'STDDEV_SAMP', stddev_pop: 'STDDEV_POP', variance: 'VARIANCE', var_samp: 'VAR_SAMP', var_pop: 'VAR_POP' };
const from = (scope: Scope) => sql`${backtickQualified(scope.table.schema, scope.table.name)} AS ${scope.alias}`;
/** The row number a `distinct_on` subquery adds (1: the first row of its group). */
const DISTINCT_ROW_NAME = '__distinct_row';
const DISTINCT_ROW = backtick(DISTINCT_ROW_NAME);
const typename = (name: string, as: Sql) => sql`${paramFrom({ kind: 'literal', value: name, query: true })} AS ${as}`;

class SelectCompiler extends StatementScopes {
  constructor(
    private readonly options: TranslateOptions,
    table: QualifiedName,
  ) {
    super(BIGQUERY_BOOLEXP, backtick, table);
  }

  /** ` WHERE c1 AND c2 ...`, empty conditions left out. */
  private where(items: (Sql | BoolExp)[], scope: Scope): Sql {
    const sqls = items.flatMap((c) => (isSql(c) ? [c] : isTrue(c) ? [] : [this.bool.compile(c, scope)]));
    return sqls.length === 0 ? raw('') : sql` WHERE ${join(sqls.map((c) => sql`(${c})`), ' AND ')}`;
  }

  /**
   * `SELECT [AS STRUCT] <list> FROM <table, or source> WHERE ... ORDER BY ... LIMIT ... OFFSET ...`.
   * With `distinct_on`, the filtered rows are numbered within each group of the distinct
   * columns (in the requested order) and the first of each group is kept, before the order,
   * limit and offset apply: PostgreSQL's `DISTINCT ON`, as the well-known engine's BigQuery
   * backend writes it (a subquery with `ROW_NUMBER() OVER (PARTITION BY ...)` under the same alias).
   */
  rows(rows: RowSource, scope: Scope, list: Sql, related: Sql[], struct: boolean, source?: Sql): Sql {
    const order = rows.orderBy.flatMap((o) => this.orderItem(o, scope));
    const asked = this.integer(rows.limit, 'limit');
    const limit = asked === null ? rows.limitCap : rows.limitCap === null ? asked : Math.min(asked, rows.limitCap);
    const offset = this.integer(rows.offset, 'offset');
    const tail = sql`${order.length ? sql` ORDER BY ${join(order, ', ')}` : raw('')}${limit !== null ? raw(` LIMIT ${limit}`) : offset !== null ? raw(' LIMIT 9223372036854775807') : raw('')}${offset !== null ? raw(` OFFSET ${offset}`) : raw('')}`;
    const base = source ? sql`${source} AS ${scope.alias}` : from(scope);
    const filtered = this.where([...related, rows.permission, rows.where], scope);
    const head = sql`SELECT ${raw(struct ? 'AS STRUCT ' : '')}${list} FROM `;
    if (rows.distinctOn.length === 0) return sql`${head}${base}${filtered}${tail}`;
    const groups = join(rows.distinctOn.map((c) => this.visible(col(scope, c.column), c.visibleWhen, scope)), ', ');
    const numbered = sql`ROW_NUMBER() OVER (PARTITION BY ${groups}${order.length ? sql` ORDER BY ${join(order, ', ')}` : raw('')}) AS ${DISTINCT_ROW}`;
    return sql`${head}(SELECT *, ${numbered} FROM ${base}${filtered}) AS ${scope.alias} WHERE ${col(scope, DISTINCT_ROW_NAME)} = 1${tail}`;
  }

  private integer(v: Value | null, what: string): number | null {
    if (v === null) return null;
    if (v.kind !== 'literal' || typeof v.value !== 'number' || !Number.isSafeInteger(v.value) || v.value < 0) throw notSupported(`a ${what} given by a variable`);
    return v.value;
  }

  private orderItem(o: OrderByItem, scope: Scope): Sql[] {
    if (o.path.length > 0 || o.target.kind !== 'column') throw notSupported('ordering by a relationship');
    const c = col(scope, o.target.column);
    const value = o.target.visibleWhen ? sql`CASE WHEN ${this.bool.compile(o.target.visibleWhen, scope)} THEN ${c} ELSE NULL END` : c;
    // NULLS FIRST/LAST as a leading key: the same meaning, in a form every parser reads.
    const nullsFirst = (o.nulls ?? (o.direction === 'desc' ? 'first' : 'last')) === 'first';
    return [sql`CASE WHEN ${value} IS NULL THEN ${raw(nullsFirst ? '0' : '1')} ELSE ${raw(nullsFirst ? '1' : '0')} END`, sql`${value} ${raw(o.direction === 'desc' ? 'DESC' : 'ASC')}`];
  }

  /** `` `dataset`.`fn`(<column>, CAST(@p AS <type>), ...) `` in the function's argument order. */
  private call(c: FunctionCall, scope: Scope): Sql {
    const args = c.args.map((a) => {
      if (a.kind === 'column') return col(scope, a.column);
      if (a.kind === 'value') return BIGQUERY_BOOLEXP.value(a.value, a.type, scope, this.root);
      throw notSupported(`a ${a.kind} argument of a function`);
    });
    return sql`${backtickQualified(c.fn.schema, c.fn.name)}(${join(args, ', ')})`;
  }

  private output(value: Sql, type: CatalogType): Sql {
    return this.options.stringifyNumeric && type.traits.wide ? sql`CAST(${value} AS STRING)` : value;
  }

  private visible(value: Sql, when: BoolExp | null, scope: Scope): Sql {
    return when ? sql`CASE WHEN ${this.bool.compile(when, scope)} THEN ${value} ELSE NULL END` : value;
  }

  fields(fields: Field[], scope: Scope): Sql {
    const items = fields.map((f): Sql => {
      const as = backtick(f.alias);
      switch (f.kind) {
        case 'typename':
          return typename(f.typename, as);
        case 'column':
          if (f.jsonPath) throw notSupported('a JSON path argument');
          return sql`${this.visible(this.output(col(scope, f.column), f.type), f.visibleWhen, scope)} AS ${as}`;
        case 'object': {
          const inner = this.scope(f.join.target);
          return sql`(SELECT AS STRUCT ${this.fields(f.fields, inner)} FROM ${from(inner)}${this.where([joinCondition(f.join, scope, inner), f.permission], inner)} LIMIT 1) AS ${as}`;
        }
        case 'array': {
          const inner = this.scope(f.join.target);
          return sql`ARRAY(${this.rows(f.rows, inner, this.fields(f.fields, inner), [joinCondition(f.join, scope, inner)], true)}) AS ${as}`;
        }
        case 'aggregate':
          return sql`${this.aggregate(f.rows, f.aggregate, f.join.target, (s) => [joinCondition(f.join, scope, s)])} AS ${as}`;
        case 'computed_set': {
          // A table function's rows (`bigquery_add_computed_field`), typed as its return table.
          const inner = this.scope(f.rows.table);
          return sql`ARRAY(${this.rows(f.rows, inner, this.fields(f.fields, inner), [], true, this.call(f.call, scope))}) AS ${as}`;
        }
        case 'computed_scalar':
          throw notSupported('scalar computed fields');
      }
    });
    return items.length > 0 ? join(items, ', ') : raw('NULL AS `__empty`');
  }

  /** An aggregate object as a STRUCT: `aggregate` over the rows, `nodes` as an ARRAY of them. */
  aggregate(rows: RowSource, selection: AggregateSelection, table: QualifiedName, related: (s: Scope) => Sql[]): Sql {
    const parts = selection.map((s): Sql => {
      const as = backtick(s.alias);
      if (s.kind === 'typename') return typename(s.typename, as);
      const inner = this.scope(table);
      if (s.kind === 'nodes') return sql`ARRAY(${this.rows(rows, inner, this.fields(s.fields, inner), related(inner), true)}) AS ${as}`;
      const paged = rows.limit !== null || rows.offset !== null || rows.limitCap !== null || rows.distinctOn.length > 0;
      // Aggregated over the rows themselves, or over those the limit (or distinct_on) leaves.
      const r = paged ? this.scope(table) : inner;
      const source = paged ? sql`(${this.rows(rows, inner, raw(`${inner.alias.parts[0] as string}.*`), related(inner), false)}) AS ${r.alias}` : from(inner);
      const where = paged ? raw('') : this.where([...related(inner), rows.permission, rows.where], inner);
      return sql`(SELECT STRUCT(${join(s.fields.map((f) => this.aggregateField(f, r)), ', ')}) FROM ${source}${where}) AS ${as}`;
    });
    return sql`STRUCT(${parts.length > 0 ? join(parts, ', ') : raw('NULL AS `__empty`')})`;
  }

  private aggregateField(f: AggregateField, r: Scope): Sql {
    const as = backtick(f.alias);
    switch (f.kind) {
      case 'typename':
        return typename(f.typename, as);
      case 'count': {
        if (f.columns.length > 1) throw notSupported('count over several columns');
        const c = f.columns[0];
        const arg = c ? sql`${raw(f.distinct ? 'DISTINCT ' : '')}${this.visible(col(r, c.column), c.visibleWhen, r)}` : raw('*');
        return sql`COUNT(${arg}) AS ${as}`;
      }
      case 'fn': {
        const fn = AGGREGATES[f.fn];
        if (!fn) throw notSupported(`the aggregate ${f.fn}`);
        const columns = f.columns.map((c) =>
          'typename' in c ? typename(c.typename, backtick(c.alias)) : sql`${this.output(sql`${raw(fn)}(${this.visible(col(r, c.column), c.visibleWhen, r)})`, c.type)} AS ${backtick(c.alias)}`,
        );
        return sql`STRUCT(${join(columns, ', ')}) AS ${as}`;
      }
    }
  }
}

/**
 * A join step's statement (a `to_source` remote relationship into this source): the key
 * tuples (`join-keys`, a JSON array of objects) unnested WITH OFFSET, each tuple's rows as JSON
 * text (an object or null; an array when `many`), and those texts joined into one JSON array
 * in the tuples' order, the answer a join step gives (`execute/join.ts`). Texts, because
 * GoogleSQL has no arrays of arrays.
 */
function joinSql(compiler: SelectCompiler, field: Extract<RootField, { kind: 'join' }>): Sql {
  const keys = compiler.scope(field.rows.table);
  const columns = field.keys.map((k) => sql`CAST(JSON_VALUE(\`__key\`, ${literal(`$."${jsonKey(k.child, 'column name')}"`)}) AS ${castType(k.type)}) AS ${backtick(k.child)}`);
  const tuples = sql`SELECT \`__ord\`, ${join(columns, ', ')} FROM UNNEST(JSON_QUERY_ARRAY(${paramFrom({ kind: 'join-keys' })})) AS \`__key\` WITH OFFSET AS \`__ord\``;
  // The target's rows are the statement's root (a permission's `$` column comparisons read them).
  const inner = compiler.root;
  const related = [joinCondition({ target: field.rows.table, mapping: field.keys.map((k): [string, string] => [k.child, k.column]) }, keys, inner)];
  const fields = compiler.fields(field.fields, inner);
  const value = field.many ? sql`ARRAY(${compiler.rows(field.rows, inner, fields, related, true)})` : sql`(${compiler.rows({ ...field.rows, limitCap: 1 }, inner, fields, related, true)})`;
  const texts = sql`ARRAY(SELECT IFNULL(TO_JSON_STRING(${value}), 'null') FROM (${tuples}) AS ${keys.alias} ORDER BY ${keys.alias}.\`__ord\`)`;
  return sql`SELECT CONCAT('[', ARRAY_TO_STRING(${texts}, ','), ']') AS root`;
}

/** The statement of one query root field. */
export function translateRootField(field: Exclude<RootField, { kind: 'typename' }>, options: TranslateOptions): TranslatedField {
  if ('from' in field && field.from) throw notSupported('tracked functions');
  if (field.kind === 'stream') throw notSupported('streaming subscriptions');
  const compiler = new SelectCompiler(options, field.rows.table);
  const reads = { sessionVariables: sessionVariablesOf(field), wholeSession: false };
  if (field.kind === 'join') return { ...renderBigQuery(joinSql(compiler, field)), ...reads };
  let body: Sql;
  if (field.kind === 'aggregate') body = compiler.aggregate(field.rows, field.aggregate, field.rows.table, () => []);
  else if (field.kind === 'select_one') body = sql`(${compiler.rows({ ...field.rows, limit: { kind: 'literal', value: 1 } }, compiler.root, compiler.fields(field.fields, compiler.root), [], true)})`;
  else body = sql`ARRAY(${compiler.rows(field.rows, compiler.root, compiler.fields(field.fields, compiler.root), [], true)})`;
  return { ...renderBigQuery(sql`SELECT TO_JSON_STRING(${body}) AS root`), ...reads };
}
