/**
 * Boolean expressions (permission filters, `where`) as standard SQL conditions, for the
 * backends whose dialect differs only in quoting, casts and lists (SQL Server, BigQuery):
 * each gives its `BoolExpDialect`. PostgreSQL has its own (operators on binary JSON, label trees, PostGIS).
 */
import { isCast, isTrue, TRUE, type BoolExp, type ComparisonOp, type Join, type Value } from '../ir/boolexp.js';
import type { CatalogType, QualifiedName } from '../catalog/types.js';
import { join, paramFrom, raw, sql, type Sql } from './fragment.js';
import type { Aliases, Scope } from './scope.js';

/** What a dialect writes itself. */
export interface BoolExpDialect {
  table(t: QualifiedName): Sql;
  column(scope: Scope, column: string): Sql;
  /** A value compared with a column of `type` (null: as it is); `root` is the root field's table. */
  value(v: Value, type: CatalogType | null, scope: Scope, root: Scope): Sql;
  /** A subquery of a list's values (`_in`), from the list as one JSON array parameter. */
  list(json: Sql, type: CatalogType): Sql;
  /** The error for what the backend cannot write. */
  notSupported(what: string): Error;
}

const COMPARE: Record<string, string> = { _eq: '=', _neq: '<>', _gt: '>', _lt: '<', _gte: '>=', _lte: '<=' };
const COLUMN_COMPARE: Record<string, string> = { _ceq: '=', _cneq: '<>', _cgt: '>', _clt: '<', _cgte: '>=', _clte: '<=' };

/** Compiles boolean expressions within one statement (aliases shared with the statement). */
export class BoolExpCompiler {
  constructor(
    private readonly dialect: BoolExpDialect,
    private readonly aliases: Aliases,
    private readonly root: Scope,
  ) {}

  compile(b: BoolExp, scope: Scope): Sql {
    switch (b.kind) {
      case 'and':
        return b.items.length === 0 ? raw('1 = 1') : join(b.items.map((i) => sql`(${this.compile(i, scope)})`), ' AND ');
      case 'or':
        return b.items.length === 0 ? raw('1 = 0') : join(b.items.map((i) => sql`(${this.compile(i, scope)})`), ' OR ');
      case 'not':
        return sql`NOT (${this.compile(b.item, scope)})`;
      case 'exists': {
        const inner: Scope = { alias: this.aliases.next(), table: b.table };
        return sql`EXISTS (SELECT 1 FROM ${this.dialect.table(b.table)} AS ${inner.alias} WHERE ${this.compile(b.where, inner)})`;
      }
      case 'relationship': {
        const inner: Scope = { alias: this.aliases.next(), table: b.join.target };
        const conditions = [joinCondition(this.dialect, b.join, scope, inner), ...[b.where, b.permission ?? TRUE].filter((x) => !isTrue(x)).map((x) => this.compile(x, inner))];
        return sql`EXISTS (SELECT 1 FROM ${this.dialect.table(b.join.target)} AS ${inner.alias} WHERE ${join(conditions.map((c) => sql`(${c})`), ' AND ')})`;
      }
      case 'column': {
        const subject = this.dialect.column(scope, b.column);
        const visible = b.visibleWhen ? sql`CASE WHEN ${this.compile(b.visibleWhen, scope)} THEN ${subject} ELSE NULL END` : subject;
        return b.ops.length === 0 ? raw('1 = 1') : join(b.ops.map((op) => sql`(${this.comparison(visible, b.type, op, scope)})`), ' AND ');
      }
      case 'computed':
      case 'computed_rows':
        throw this.dialect.notSupported('computed fields');
    }
  }

  /** A list literal or variable, bound as one JSON array. */
  private list(value: Value, type: CatalogType): Sql {
    if (value.kind === 'literal') return this.dialect.list(paramFrom({ kind: 'literal', value: JSON.stringify(value.value), query: true }), type);
    if (value.kind === 'variable') return this.dialect.list(paramFrom({ kind: 'variable', name: value.name, path: value.path, coerce: 'json' }), type);
    throw this.dialect.notSupported(`a list from a ${value.kind}`);
  }

  private comparison(subject: Sql, type: CatalogType, op: ComparisonOp, scope: Scope): Sql {
    // These backends have no binary JSON or PostGIS types, which are all `_cast` applies to.
    if (isCast(op)) throw this.dialect.notSupported('the operator _cast');
    const cmp = COMPARE[op.op];
    if (cmp) return sql`${subject} ${raw(cmp)} ${this.dialect.value(op.value, type, scope, this.root)}`;
    const ccmp = COLUMN_COMPARE[op.op];
    if (ccmp) return sql`${subject} ${raw(ccmp)} ${this.dialect.value(op.value, null, scope, this.root)}`;
    switch (op.op) {
      case '_in':
        return sql`${subject} IN (${this.list(op.value, type)})`;
      case '_nin':
        return sql`${subject} NOT IN (${this.list(op.value, type)})`;
      case '_is_null':
        if (op.value.kind === 'literal') return op.value.value === true ? sql`${subject} IS NULL` : sql`${subject} IS NOT NULL`;
        return sql`(${this.dialect.value(op.value, null, scope, this.root)} = 'true' AND ${subject} IS NULL) OR (${this.dialect.value(op.value, null, scope, this.root)} = 'false' AND ${subject} IS NOT NULL)`;
      case '_like':
        return sql`${subject} LIKE ${this.dialect.value(op.value, type, scope, this.root)}`;
      case '_nlike':
        return sql`${subject} NOT LIKE ${this.dialect.value(op.value, type, scope, this.root)}`;
      // LOWER on both sides: case-insensitive whatever the collation (SQL Server) or always (BigQuery).
      case '_ilike':
        return sql`LOWER(${subject}) LIKE LOWER(${this.dialect.value(op.value, type, scope, this.root)})`;
      case '_nilike':
        return sql`LOWER(${subject}) NOT LIKE LOWER(${this.dialect.value(op.value, type, scope, this.root)})`;
      default:
        throw this.dialect.notSupported(`the operator ${op.op}`);
    }
  }
}

/** The join between a row of `outer` and the related rows of `inner`. */
export function joinCondition(dialect: BoolExpDialect, j: Join, outer: Scope, inner: Scope): Sql {
  return join(j.mapping.map(([l, r]) => sql`${dialect.column(outer, l)} = ${dialect.column(inner, r)}`), ' AND ');
}
