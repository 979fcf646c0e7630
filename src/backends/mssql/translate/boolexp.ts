/** Boolean expressions (permission filters, `where`) as T-SQL conditions. */
import { isTrue, TRUE, type BoolExp, type ComparisonOp, type Join } from '../../../ir/boolexp.js';
import type { CatalogType } from '../../../metadata/catalog.js';
import { join, raw, sql, type Sql } from '../../../sql/fragment.js';
import { bracketQualified } from '../dialect.js';
import { Aliases, bound, boundList, col, notSupported, type Scope } from './context.js';

const COMPARE: Record<string, string> = { _eq: '=', _neq: '<>', _gt: '>', _lt: '<', _gte: '>=', _lte: '<=' };
const COLUMN_COMPARE: Record<string, string> = { _ceq: '=', _cneq: '<>', _cgt: '>', _clt: '<', _cgte: '>=', _clte: '<=' };

/** Compiles boolean expressions within one statement (aliases shared with the statement). */
export class BoolExpCompiler {
  constructor(
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
        return sql`EXISTS (SELECT 1 FROM ${bracketQualified(b.table.schema, b.table.name)} AS ${inner.alias} WHERE ${this.compile(b.where, inner)})`;
      }
      case 'relationship': {
        const inner: Scope = { alias: this.aliases.next(), table: b.join.target };
        const conditions = [joinCondition(b.join, scope, inner), ...[b.where, b.permission ?? TRUE].filter((x) => !isTrue(x)).map((x) => this.compile(x, inner))];
        return sql`EXISTS (SELECT 1 FROM ${bracketQualified(b.join.target.schema, b.join.target.name)} AS ${inner.alias} WHERE ${join(conditions.map((c) => sql`(${c})`), ' AND ')})`;
      }
      case 'column': {
        const subject = col(scope, b.column);
        const visible = b.visibleWhen ? sql`CASE WHEN ${this.compile(b.visibleWhen, scope)} THEN ${subject} ELSE NULL END` : subject;
        return b.ops.length === 0 ? raw('1 = 1') : join(b.ops.map((op) => sql`(${this.comparison(visible, b.type, op, scope)})`), ' AND ');
      }
      case 'computed':
      case 'computed_rows':
        throw notSupported('computed fields');
    }
  }

  private comparison(subject: Sql, type: CatalogType, op: ComparisonOp, scope: Scope): Sql {
    const cmp = COMPARE[op.op];
    if (cmp) return sql`${subject} ${raw(cmp)} ${bound(op.value, type, scope, this.root)}`;
    const ccmp = COLUMN_COMPARE[op.op];
    if (ccmp) return sql`${subject} ${raw(ccmp)} ${bound(op.value, null, scope, this.root)}`;
    switch (op.op) {
      case '_in':
        return sql`${subject} IN (${boundList(op.value, type)})`;
      case '_nin':
        return sql`${subject} NOT IN (${boundList(op.value, type)})`;
      case '_is_null':
        if (op.value.kind === 'literal') return op.value.value === true ? sql`${subject} IS NULL` : sql`${subject} IS NOT NULL`;
        return sql`(${bound(op.value, null, scope, this.root)} = N'true' AND ${subject} IS NULL) OR (${bound(op.value, null, scope, this.root)} = N'false' AND ${subject} IS NOT NULL)`;
      case '_like':
        return sql`${subject} LIKE ${bound(op.value, type, scope, this.root)}`;
      case '_nlike':
        return sql`${subject} NOT LIKE ${bound(op.value, type, scope, this.root)}`;
      // SQL Server's default collations compare case-insensitively; LOWER makes it hold under any collation.
      case '_ilike':
        return sql`LOWER(${subject}) LIKE LOWER(${bound(op.value, type, scope, this.root)})`;
      case '_nilike':
        return sql`LOWER(${subject}) NOT LIKE LOWER(${bound(op.value, type, scope, this.root)})`;
      default:
        throw notSupported(`the operator ${op.op}`);
    }
  }
}

/** The join between a row of `outer` and the related rows of `inner`. */
export function joinCondition(j: Join, outer: Scope, inner: Scope): Sql {
  return join(j.mapping.map(([l, r]) => sql`${col(outer, l)} = ${col(inner, r)}`), ' AND ');
}
