/**
 * The deprecated data operations of `/v1/query` and `/v2/query`: select, count,
 * insert, update, delete on a tracked table. They run as admin (no permissions) inside
 * the request's unit of work, so a bulk that fails later rolls them back too.
 */
import { dataError } from '../../backends/pg/data-errors.js';
import { countStatement, selectStatement } from '../../backends/pg/dml/select.js';
import { deleteStatement, insertStatement, updateStatement } from '../../backends/pg/dml/mutations.js';
import { dmlTarget, type DmlTarget } from '../../backends/pg/dml/target.js';
import { notExists } from '../../protocol/errors.js';
import { render, type Sql } from '../../sql/fragment.js';
import { ObjectReader, str, type Json } from '../../util/decode.js';
import { findSource, trackedTable } from '../lookup.js';
import { sameTable, showTable, tableName } from '../names.js';
import type { Command } from './context.js';

type Row = Record<string, unknown>;

function dmlCommand(build: (target: DmlTarget, r: ObjectReader) => Sql, answer: (row: Row) => Json): Command {
  return async (ctx, args, path) => {
    const r = ObjectReader.of(args, path);
    // Only /v2/query names the source; /v1/query works on `default`.
    const source = findSource(ctx.metadata, ctx.endpoint === 'v2/query' ? r.withDefault('source', str, 'default') : 'default', r.at('source'));
    const table = r.required('table', tableName);
    const missing = () => notExists(`table ${JSON.stringify(showTable(table))} does not exist`, r.at('table'));
    if (!trackedTable(source, table)) throw missing();
    const pgTable = ctx.introspection(source.name)?.tables.find((t) => sameTable(t, table));
    if (!pgTable) throw missing();
    const { text, params } = render(build(dmlTarget(pgTable), r));
    const values = params.map((p) => (p.kind === 'literal' ? p.value : null));
    let rows: Row[];
    try {
      rows = await ctx.query(source.name, text, values);
    } catch (e) {
      throw dataError(e, text);
    }
    return { metadata: null, response: answer(rows[0] ?? {}) };
  };
}

/** `{affected_rows}` plus `returning` when it was asked for. */
function mutationAnswer(row: Row): Json {
  const out: Record<string, Json> = { affected_rows: Number(row.affected_rows) };
  if (row.returning !== undefined) out.returning = row.returning as Json;
  return out;
}

export const DML_COMMANDS: Record<string, Command> = {
  select: dmlCommand(selectStatement, (row) => row.rows as Json),
  count: dmlCommand(countStatement, (row) => ({ count: Number(row.count) })),
  insert: dmlCommand(insertStatement, mutationAnswer),
  update: dmlCommand(updateStatement, mutationAnswer),
  delete: dmlCommand(deleteStatement, mutationAnswer),
};
