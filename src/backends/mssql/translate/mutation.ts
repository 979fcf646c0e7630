/**
 * Mutations on SQL Server: each field is one T-SQL batch, atomic on its own (XACT_ABORT and
 * its own transaction, nested in the request's when there is one):
 *
 *   SET XACT_ABORT ON; BEGIN TRANSACTION;
 *   DECLARE @out TABLE (<every column of the table>);
 *   INSERT/UPDATE/DELETE ... OUTPUT INSERTED.*|DELETED.* INTO @out ...;
 *   IF EXISTS (SELECT 1 FROM @out AS t0 WHERE <the check does not hold>) THROW 50000, N'service-permission-check-failed', 1;
 *   SELECT (<the answer over @out> FOR JSON PATH ...) AS [root];
 *   COMMIT TRANSACTION
 *
 * An upsert (`if_matched`) is a MERGE in place of the INSERT.
 * OUTPUT goes INTO a table variable because a plain OUTPUT is refused on tables with
 * triggers (event triggers). The check and the answer read the changed rows from @out
 * (relationships join the tables as they are after the change); a failed check THROWs,
 * which with XACT_ABORT rolls the whole transaction back (the request's too).
 * Every value is a parameter, identifiers bracket-quoted.
 */
import { TRUE, isTrue, type BoolExp, type Value } from '../../../ir/boolexp.js';
import { badRequest } from '../../../errors/admin.js';
import type { Delete, IfMatched, Insert, MutationField, MutationOutput, PerColumn, Update } from '../../../ir/mutation.js';
import type { RowSource } from '../../../ir/select.js';
import type { CatalogType } from '../../../catalog/types.js';
import { join, paramFrom, raw, sql, type Sql } from '../../../sql/fragment.js';
import { sessionVariablesOf } from '../../../ir/session-variables.js';
import type { TranslatedMutation, TranslateOptions } from '../../faces/translator.js';
import { bracket, bracketQualified, renderMssql } from '../dialect.js';
import { bound, col, notSupported, type Scope } from './context.js';
import { ARRAY, OBJECT, SelectCompiler } from './select.js';
import { CHECK_VIOLATION } from '../errors.js';


const OUT = raw('@out');

/** A column's type as a table variable declares it (rowversion values are copied as binary). */
function declared(t: CatalogType): Sql {
  return /^(timestamp|rowversion)$/i.test(t.display) ? raw('binary(8)') : raw(t.display);
}

class MutationCompiler extends SelectCompiler {
  /** The changed rows, as `@out` (the statement's root scope: `["$", column]` comparisons of a check read them). */
  readonly changed: Scope;

  constructor(
    options: TranslateOptions,
    table: Scope['table'],
    private readonly columns: PerColumn<CatalogType>,
  ) {
    super(options, table);
    this.changed = this.root;
    this.readFrom.set(this.changed, OUT);
  }

  declare(): Sql {
    return sql`DECLARE @out TABLE (${join(this.columns.map(([c, t]) => sql`${bracket(c)} ${declared(t)}`), ', ')})`;
  }

  /** `OUTPUT INSERTED.[a], ... INTO @out ([a], ...)`. */
  outputInto(prefix: 'INSERTED' | 'DELETED'): Sql {
    const names = this.columns.map(([c]) => bracket(c));
    return sql`OUTPUT ${join(names.map((c) => sql`${raw(prefix)}.${c}`), ', ')} INTO @out (${join(names, ', ')})`;
  }

  /** THROWs when a changed row fails the check (a NULL check fails too). */
  check(check: BoolExp): Sql[] {
    if (isTrue(check)) return [];
    const holds = this.bool.compile(check, this.changed);
    return [sql`IF EXISTS (SELECT 1 FROM @out AS ${this.changed.alias} WHERE (CASE WHEN ${holds} THEN 1 ELSE 0 END) = 0) THROW 50000, ${raw(`N'${CHECK_VIOLATION}'`)}, 1`];
  }

  /** The field's JSON over @out: the mutation response, or the one row (`_one`, `_by_pk`). */
  answer(output: MutationOutput): Sql {
    // `returning` shows the changed rows through the role's select columns, not its filter (as the well-known engine does).
    const rows = (limit: number | null): RowSource => ({ table: this.changed.table, permission: TRUE, where: TRUE, orderBy: [], distinctOn: [], limit: limit === null ? null : { kind: 'literal', value: limit }, offset: null, limitCap: null });
    if (output.kind === 'row') return sql`SELECT (${this.rows(rows(1), this.changed, this.fields(output.fields, this.changed))} ${OBJECT}) AS [root]`;
    const items = output.items.map((item): Sql => {
      const as = bracket(item.alias);
      // CAST: node-sql-parser refuses a select item that starts with a parenthesis after the first.
      if (item.kind === 'affected_rows') return sql`CAST((SELECT COUNT(*) FROM @out) AS int) AS ${as}`;
      if (item.kind === 'typename') return sql`${paramFrom({ kind: 'literal', value: item.typename, query: true })} AS ${as}`;
      return sql`JSON_QUERY(ISNULL((${this.rows(rows(null), this.changed, this.fields(item.fields, this.changed))} ${ARRAY}), N'[]')) AS ${as}`;
    });
    return sql`SELECT (SELECT ${items.length > 0 ? join(items, ', ') : raw('NULL AS [__empty]')} ${OBJECT}) AS [root]`;
  }

  insert(ins: Insert): Sql[] {
    if (ins.rows.some((r) => r.parents.length > 0 || r.children.length > 0)) throw notSupported('nested inserts');
    if (ins.onConflict) throw notSupported('on_conflict');
    if (ins.rows.length === 0) return [];
    if (ins.ifMatched) return this.merge(ins, ins.ifMatched);
    const scope = this.scope(ins.table);
    const presets = new Map(ins.presets);
    const given = ins.rows.map((r) => new Map(r.values));
    const columns = [...new Set([...presets.keys(), ...given.flatMap((v) => [...v.keys()])])];
    const types = new Map(ins.columnTypes);
    const target = bracketQualified(ins.table.schema, ins.table.name);
    if (columns.length === 0) return ins.rows.map(() => sql`INSERT INTO ${target} ${this.outputInto('INSERTED')} DEFAULT VALUES`);
    const values = given.map((row) => {
      const cells = columns.map((c) => {
        const v = presets.get(c) ?? row.get(c);
        return v ? bound(v, types.get(c) ?? null, scope, this.changed) : raw('DEFAULT');
      });
      return sql`(${join(cells, ', ')})`;
    });
    return [sql`INSERT INTO ${target} (${join(columns.map(bracket), ', ')}) ${this.outputInto('INSERTED')} VALUES ${join(values, ', ')}`];
  }

  /**
   * `if_matched`: a MERGE per set of given columns (a table value constructor has no DEFAULT,
   * so rows giving different columns go separately), matching existing rows on the match
   * columns; a matched row that passes the update filter and `where` is updated with the
   * update columns it was given and the update presets, the others are inserted.
   */
  private merge(ins: Insert, m: IfMatched): Sql[] {
    const target = this.scope(ins.table);
    const source: Scope = { alias: bracket('s'), table: ins.table };
    const types = new Map(ins.columnTypes);
    const groups = new Map<string, { columns: string[]; rows: Map<string, Value>[] }>();
    for (const r of ins.rows) {
      const row = new Map([...r.values, ...ins.presets]);
      const columns = [...row.keys()];
      const key = JSON.stringify(columns);
      const group = groups.get(key) ?? { columns, rows: [] };
      group.rows.push(row);
      groups.set(key, group);
    }
    return [...groups.values()].map(({ columns, rows }) => {
      const missing = m.matchColumns.filter((c) => !columns.includes(c));
      if (missing.length > 0) throw badRequest('validation-failed', `the match columns ${missing.map((c) => JSON.stringify(c)).join(', ')} need a value in every object`);
      const values = rows.map((row) => sql`(${join(columns.map((c) => bound(row.get(c)!, types.get(c) ?? null, target, this.changed)), ', ')})`);
      const on = m.matchColumns.length > 0 ? join(m.matchColumns.map((c) => sql`${col(target, c)} = ${col(source, c)}`), ' AND ') : raw('1 = 0');
      const presets = new Map(m.presets);
      const sets = [
        ...m.updateColumns.filter((c) => columns.includes(c) && !presets.has(c)).map((c) => sql`${bracket(c)} = ${col(source, c)}`),
        ...m.presets.map(([c, v]) => sql`${bracket(c)} = ${bound(v, types.get(c) ?? null, target, this.changed)}`),
      ];
      const when = isTrue(m.where) ? raw('') : sql` AND (${this.bool.compile(m.where, target)})`;
      // Nothing to set (no update columns, or none of them given and no presets): a matched row is left alone.
      const matched = m.updateColumns.length > 0 && sets.length > 0 ? sql` WHEN MATCHED${when} THEN UPDATE SET ${join(sets, ', ')}` : raw('');
      const names = join(columns.map(bracket), ', ');
      const using = sql`(VALUES ${join(values, ', ')}) AS ${source.alias} (${names})`;
      const insert = sql`INSERT (${names}) VALUES (${join(columns.map((c) => col(source, c)), ', ')})`;
      return sql`MERGE INTO ${bracketQualified(ins.table.schema, ins.table.name)} WITH (HOLDLOCK) AS ${target.alias} USING ${using} ON (${on})${matched} WHEN NOT MATCHED THEN ${insert} ${this.outputInto('INSERTED')}`;
    });
  }

  update(u: Update): Sql[] {
    if (u.operations.length === 0) return [];
    const scope = this.scope(u.table);
    const sets = u.operations.map((o) => {
      const value = bound(o.value, o.type, scope, this.changed);
      if (o.op === '_inc') return sql`${bracket(o.column)} = ${col(scope, o.column)} + ${value}`;
      if (o.op !== '_set') throw notSupported(`the update operator ${o.op}`);
      return sql`${bracket(o.column)} = ${value}`;
    });
    return [sql`UPDATE ${scope.alias} SET ${join(sets, ', ')} ${this.outputInto('INSERTED')} FROM ${bracketQualified(u.table.schema, u.table.name)} AS ${scope.alias}${this.conditions([u.permission, u.where], scope)}`];
  }

  delete(d: Delete): Sql[] {
    const scope = this.scope(d.table);
    return [sql`DELETE ${scope.alias} ${this.outputInto('DELETED')} FROM ${bracketQualified(d.table.schema, d.table.name)} AS ${scope.alias}${this.conditions([d.permission, d.where], scope)}`];
  }
}

/** One batch: its statements separated by `;` and a line break (the golden files show one statement a line). */
function batch(c: MutationCompiler, change: Sql[], check: BoolExp, output: MutationOutput): Sql {
  const statements = [raw('SET XACT_ABORT ON'), raw('BEGIN TRANSACTION'), c.declare(), ...change, ...c.check(check), c.answer(output), raw('COMMIT TRANSACTION')];
  return join(statements, ';\n');
}

export function translateMutation(field: MutationField, options: TranslateOptions): TranslatedMutation {
  const batches: Sql[] = [];
  switch (field.kind) {
    case 'insert': {
      const c = new MutationCompiler(options, field.insert.table, field.insert.columnTypes);
      batches.push(batch(c, c.insert(field.insert), field.insert.check, field.output));
      break;
    }
    case 'update':
      for (const u of field.updates) {
        const c = new MutationCompiler(options, u.table, u.columnTypes);
        batches.push(batch(c, c.update(u), u.check, field.output));
      }
      break;
    case 'delete': {
      const c = new MutationCompiler(options, field.delete.table, field.delete.columnTypes);
      batches.push(batch(c, c.delete(field.delete), TRUE, field.output));
      break;
    }
  }
  return {
    ops: batches.map((b) => ({ ...renderMssql(b), final: true })),
    sessionVariables: sessionVariablesOf(field),
    wholeSession: false,
  };
}
