/**
 * Mutations to statements. A flat insert, an update or a delete is one statement:
 * a data-modifying CTE whose rows feed the JSON answer and the permission check. A
 * nested insert is a short program (parents, the row, children, then the answer),
 * each statement reading columns of rows the earlier ones returned.
 */
import { TRUE, isTrue, type BoolExp } from '../../../ir/boolexp.js';
import type { Delete, Insert, MutationField, MutationOutput, Update } from '../../../ir/mutation.js';
import type { RowSource } from '../../../ir/select.js';
import { ident, join, literal, paramFrom, qualified, raw, sql, type Sql } from '../../../sql/fragment.js';
import { renderPg } from '../dialect.js';
import { and, boolExpSql, valueSql } from './boolexp.js';
import { castType, type Scope } from './context.js';
import type { TranslateOptions, TranslatedMutation } from '../../faces/translator.js';
import { readsRow, ROW, Translator, type RowFrom } from './select.js';
import { CHECK_VIOLATION } from '../check-violation.js';

export interface TranslatedOp {
  sql: Sql;
  final: boolean;
}

const MUT = ident('_mut');
const CHECK = ident('__check');

class MutationTranslator extends Translator {
  /** Whether the answer reads the typed row (computed fields): only then do statements return it. */
  constructor(
    options: TranslateOptions,
    private readonly needRow: boolean,
  ) {
    super(options);
  }

  rowColumn(scope: Scope): Sql {
    return this.needRow ? sql`, ${scope.alias} AS ${ROW}` : raw('');
  }

  /** The changed rows: `returning` shows them through the role's select columns, not its filter (as the well-known engine does). */
  private returningRows(table: Insert['table']): RowSource {
    return { table, permission: TRUE, where: TRUE, orderBy: [], distinctOn: [], limit: null, offset: null, limitCap: null };
  }

  /** The JSON answer over the rows in `from` (the CTE, or the table filtered to the inserted keys). */
  output(output: MutationOutput, rows: RowSource, affected: Sql, from: RowFrom): Sql {
    if (output.kind === 'row') {
      const q = this.rowsQuery(rows, output.fields, null, from);
      return sql`(SELECT ${ident('__s')}.root FROM (${q.sql}) AS ${ident('__s')} LIMIT 1)`;
    }
    const pairs = output.items.map((item) => {
      const key = literal(item.alias);
      if (item.kind === 'affected_rows') return sql`${key}, ${affected}`;
      if (item.kind === 'typename') return sql`${key}, ${literal(item.typename)}`;
      return sql`${key}, (${this.arrayQuery(rows, item.fields, null, from)})`;
    });
    return sql`json_build_object(${join(pairs, ', ')})`;
  }

  private check(check: BoolExp, scope: Scope): Sql {
    return isTrue(check) ? raw('true') : boolExpSql(check, scope, this.env(scope));
  }

  /** No rows at all: the answer of a mutation that changes nothing. */
  private nothing(table: Insert['table']): Sql {
    const t: Scope = { alias: ident('_t'), table };
    return sql`SELECT ${t.alias}.*${this.rowColumn(t)}, true AS ${CHECK} FROM ${qualified(table.schema, table.name)} AS ${t.alias} WHERE false`;
  }

  /** `INSERT ... VALUES ... [ON CONFLICT ...] RETURNING *, <check>` for the given rows. */
  insertStatement(ins: Insert, rows: Insert['rows'], fk: Map<string, Sql>[]): Sql {
    if (rows.length === 0) return this.nothing(ins.table);
    const scope: Scope = { alias: this.aliases.next(), table: ins.table };
    const presets = new Map(ins.presets);
    const given = rows.map((r) => new Map(r.values));
    const columns = [...new Set([...presets.keys(), ...given.flatMap((v, i) => [...v.keys(), ...(fk[i]?.keys() ?? [])])])];
    const types = new Map(ins.columnTypes);
    const typeOf = (c: string) => castType(types.get(c)!);
    const values = rows.map((_, i) => {
      const cells = columns.map((c) => {
        const preset = presets.get(c);
        if (preset) return valueSql(preset, typeOf(c), scope, this.env(scope));
        const fromParent = fk[i]?.get(c);
        if (fromParent) return sql`(${fromParent})::${typeOf(c)}`;
        const v = given[i]!.get(c);
        return v ? valueSql(v, typeOf(c), scope, this.env(scope)) : raw('DEFAULT');
      });
      return sql`(${join(cells, ', ')})`;
    });
    const target = sql`${qualified(ins.table.schema, ins.table.name)} AS ${scope.alias}`;
    const cols = columns.length ? sql` (${join(columns.map((c) => ident(c)), ', ')})` : raw('');
    const body = columns.length ? sql`VALUES ${join(values, ', ')}` : raw('DEFAULT VALUES');
    let conflict = raw('');
    if (ins.onConflict) {
      const oc = ins.onConflict;
      if (oc.updateColumns.length === 0) {
        conflict = sql` ON CONFLICT ON CONSTRAINT ${ident(oc.constraint)} DO NOTHING`;
      } else {
        const sets = [
          ...oc.updateColumns.filter((c) => !oc.presets.some(([p]) => p === c)).map((c) => sql`${ident(c)} = EXCLUDED.${ident(c)}`),
          ...oc.presets.map(([c, v]) => sql`${ident(c)} = ${valueSql(v, typeOf(c), scope, this.env(scope))}`),
        ];
        const where = isTrue(oc.where) ? raw('') : sql` WHERE ${boolExpSql(oc.where, scope, this.env(scope))}`;
        conflict = sql` ON CONFLICT ON CONSTRAINT ${ident(oc.constraint)} DO UPDATE SET ${join(sets, ', ')}${where}`;
      }
    }
    return sql`INSERT INTO ${target}${cols} ${body}${conflict} RETURNING ${scope.alias}.*${this.rowColumn(scope)}, ${this.check(ins.check, scope)} AS ${CHECK}`;
  }

  updateStatement(u: Update): Sql {
    if (u.operations.length === 0) return this.nothing(u.table);
    const scope: Scope = { alias: this.aliases.next(), table: u.table };
    const env = this.env(scope);
    const sets = u.operations.map((o) => {
      const c = sql`${scope.alias}.${ident(o.column)}`;
      const t = castType(o.type);
      switch (o.op) {
        case '_inc':
          return sql`${ident(o.column)} = ${c} + ${valueSql(o.value, t, scope, env)}`;
        case '_append':
          return sql`${ident(o.column)} = ${c} || ${valueSql(o.value, t, scope, env)}`;
        case '_prepend':
          return sql`${ident(o.column)} = ${valueSql(o.value, t, scope, env)} || ${c}`;
        case '_delete_key':
          return sql`${ident(o.column)} = ${c} - ${valueSql(o.value, raw('text'), scope, env)}`;
        case '_delete_elem':
          return sql`${ident(o.column)} = ${c} - ${valueSql(o.value, raw('integer'), scope, env)}`;
        case '_delete_at_path':
          return sql`${ident(o.column)} = ${c} #- ${valueSql(o.value, raw('text[]'), scope, env)}`;
        default:
          return sql`${ident(o.column)} = ${valueSql(o.value, t, scope, env)}`;
      }
    });
    const where = and([boolExpSql(u.permission, scope, env), boolExpSql(u.where, scope, this.env(scope))]);
    return sql`UPDATE ${qualified(u.table.schema, u.table.name)} AS ${scope.alias} SET ${join(sets, ', ')} WHERE ${where} RETURNING ${scope.alias}.*${this.rowColumn(scope)}, ${this.check(u.check, scope)} AS ${CHECK}`;
  }

  deleteStatement(d: Delete): Sql {
    const scope: Scope = { alias: this.aliases.next(), table: d.table };
    const where = and([boolExpSql(d.permission, scope, this.env(scope)), boolExpSql(d.where, scope, this.env(scope))]);
    return sql`DELETE FROM ${qualified(d.table.schema, d.table.name)} AS ${scope.alias} WHERE ${where} RETURNING ${scope.alias}.*${this.rowColumn(scope)}, true AS ${CHECK}`;
  }

  /** One statement: the change in a CTE, the check and the answer from its rows. */
  /**
   * A failed check raises an error inside the statement itself (a cast of
   * CHECK_VIOLATION text that cannot succeed, not constant so it is not folded at plan
   * time): the statement is then atomic on its own and needs no explicit transaction.
   */
  single(change: Sql, output: MutationOutput, table: Insert['table']): Sql {
    const answer = this.output(output, this.returningRows(table), sql`(SELECT count(*) FROM ${MUT})`, { kind: 'cte', sql: MUT });
    const failed = sql`(SELECT bool_and(${CHECK}) FROM ${MUT}) IS FALSE`;
    // The integer cast fails, and its message carries the text (a json cast's would not).
    const raise = sql`((${literal(CHECK_VIOLATION)} || (SELECT count(*) FROM ${MUT})::text)::integer)::text::json`;
    return sql`WITH ${MUT} AS (${change}) SELECT true AS ${CHECK}, CASE WHEN ${failed} THEN ${raise} ELSE ${answer} END AS root`;
  }
}

const hasNesting = (ins: Insert): boolean => ins.rows.some((r) => r.parents.length > 0 || r.children.length > 0);

/** The nested-insert program: returns the indexes of the statements that inserted `ins`'s own rows. */
function program(t: MutationTranslator, ins: Insert, ops: TranslatedOp[], fkFromParent: Map<string, Sql> | null): number[] {
  const own: number[] = [];
  for (const row of ins.rows) {
    const fk = new Map(fkFromParent ?? []);
    for (const p of row.parents) {
      const [op] = program(t, p.insert, ops, null);
      for (const [mine, theirs] of p.join.mapping) fk.set(mine, paramFrom({ kind: 'ref', op: op!, row: 0, column: theirs }));
    }
    ops.push({ sql: t.insertStatement(ins, [row], [fk]), final: false });
    const index = ops.length - 1;
    own.push(index);
    for (const c of row.children) {
      const childFk = new Map(c.join.mapping.map(([mine, theirs]) => [theirs, paramFrom({ kind: 'ref', op: index, row: 0, column: mine })]));
      program(t, c.insert, ops, childFk);
    }
  }
  return own;
}

export function translateMutation(field: MutationField, options: TranslateOptions): TranslatedMutation {
  const fields = field.output.kind === 'row' ? field.output.fields : field.output.items.flatMap((i) => (i.kind === 'returning' ? i.fields : []));
  const t = new MutationTranslator(options, readsRow(fields));
  const ops: TranslatedOp[] = [];
  switch (field.kind) {
    case 'insert': {
      const ins = field.insert;
      if (!hasNesting(ins)) {
        ops.push({ sql: t.single(t.insertStatement(ins, ins.rows, []), field.output, ins.table), final: true });
        break;
      }
      const own = program(t, ins, ops, null);
      const pk = field.primaryKey!;
      const k: Scope = { alias: ident('_k'), table: ins.table };
      const keys = pk.map((c) => sql`${k.alias}.${ident(c)} = ANY((${paramFrom({ kind: 'collect', ops: own, column: c })})::${castType(ins.columnTypes.find(([name]) => name === c)![1])}[])`);
      const from: RowFrom = { kind: 'cte', sql: sql`(SELECT ${k.alias}.*${t.rowColumn(k)} FROM ${qualified(ins.table.schema, ins.table.name)} AS ${k.alias} WHERE ${join(keys, ' AND ')})` };
      const rows: RowSource = {
        table: ins.table,
        permission: TRUE,
        where: TRUE,
        orderBy: pk.map((c) => ({ path: [], target: { kind: 'column' as const, column: c, visibleWhen: null }, direction: 'asc' as const, nulls: null })),
        distinctOn: [],
        limit: null,
        offset: null,
        limitCap: null,
      };
      const answer = t.output(field.output, rows, sql`(${paramFrom({ kind: 'affected' })})::int`, from);
      ops.push({ sql: sql`SELECT true AS ${CHECK}, ${answer} AS root`, final: true });
      break;
    }
    case 'update':
      for (const u of field.updates) ops.push({ sql: t.single(t.updateStatement(u), field.output, u.table), final: true });
      break;
    case 'delete':
      ops.push({ sql: t.single(t.deleteStatement(field.delete), field.output, field.delete.table), final: true });
      break;
  }
  return {
    ops: ops.map((o) => ({ ...renderPg(o.sql), final: o.final })),
    sessionVariables: [...t.sessionVariables],
    wholeSession: t.wholeSession.read,
  };
}
