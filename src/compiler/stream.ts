/**
 * A streaming subscription's root field (`<table>_stream`) to the IR: the
 * rows after the cursor (`where` and the role's filter applied), ordered by the cursor
 * column, at most `batch_size` of them (and the permission's `limit`, as for every select).
 * One cursor of one column, as the well-known engine takes (its messages).
 */
import { TRUE, isTrue, type BoolExp } from '../ir/boolexp.js';
import type { RootField } from '../ir/select.js';
import { streamCursorColumns } from '../schema/column-set-types.js';
import type { TableInfo } from '../schema/model.js';
import type { CollectedField } from './collect.js';
import { RequestError } from '../errors/request.js';
import type { SelectionCompiler } from './selection.js';
import { parseWhere } from './where.js';

export function streamField(selection: SelectionCompiler, t: TableInfo, f: CollectedField, path: string): Extract<RootField, { kind: 'stream' }> {
  const inputs = selection.inputs;
  const args = new Map((f.node.arguments ?? []).map((a) => [a.name.value, inputs.tree(a.value)]));
  const batchSizeArg = t.naming.fieldName('batch_size');
  const batchSize = selection.nonNegative(args.get(batchSizeArg), `${path}.args.${batchSizeArg}`);
  if (!batchSize) throw new RequestError(`missing required field ${JSON.stringify(batchSizeArg)}`, `${path}.args`);

  const cursors = inputs.list(args.get('cursor') ?? null) ?? [];
  if (cursors.length !== 1) throw new RequestError(cursors.length === 0 ? 'one cursor input is expected' : 'multiple column cursors are not supported yet', `${path}.args.cursor`);
  const cursorPath = `${path}.args.cursor[0]`;
  const cursor = inputs.object(cursors[0]!, cursorPath) ?? {};
  const initialArg = t.naming.fieldName('initial_value');
  const initial = Object.entries(inputs.object(cursor[initialArg] ?? null, `${cursorPath}.${initialArg}`) ?? {});
  if (initial.length !== 1) throw new RequestError('one streaming column field is expected', `${cursorPath}.${initialArg}`);
  const [fieldName, tree] = initial[0]!;
  const column = streamCursorColumns(t).find((c) => c.fieldName === fieldName);
  if (!column) throw new RequestError(`field ${JSON.stringify(fieldName)} not found in type: '${t.naming.typeName(t.identifier + '_stream_cursor_value_input')}'`, `${cursorPath}.${initialArg}`);
  const value = inputs.scalar(tree);
  if (!value) throw new RequestError('the initial value of a cursor cannot be null', `${cursorPath}.${initialArg}.${fieldName}`);
  const ordering = cursor.ordering === undefined ? null : inputs.resolve(cursor.ordering);
  const direction = ordering === null || String(ordering).toLowerCase() === 'asc' ? 'asc' : 'desc';

  const name = column.column.name;
  const after: BoolExp = { kind: 'column', column: name, type: column.column.type, ops: [{ op: direction === 'asc' ? '_gt' : '_lt', value: { kind: 'cursor' } }] };
  const where = args.has('where') ? parseWhere(selection.rs.model, t, args.get('where')!, inputs, `${path}.args.where`) : TRUE;
  return {
    kind: 'stream',
    alias: f.alias,
    source: t.source.name,
    rows: {
      table: { schema: t.catalog.schema, name: t.catalog.name },
      permission: t.permission.filter,
      where: isTrue(where) ? after : { kind: 'and', items: [where, after] },
      orderBy: [{ path: [], target: { kind: 'column', column: name, visibleWhen: null }, direction, nulls: null }],
      distinctOn: [],
      limit: batchSize,
      offset: null,
      limitCap: t.permission.limit,
    },
    fields: selection.fields(t, f.selections, path),
    cursor: { column: name, type: column.column.type, direction, initial: value },
  };
}
