/**
 * A table's types made only from the columns a role sees: `<t>_select_column`, the aggregate
 * fields (`<t>_aggregate_fields`, `<t>_<fn>_fields`) and the aggregate ordering
 * (`<t>_aggregate_order_by`, `<t>_<fn>_order_by`), a streaming subscription's cursor
 * (`<t>_stream_cursor_input`, `<t>_stream_cursor_value_input`). Roles that see the same columns of a table
 * share them (shared-types.ts), so most of an aggregating role's types are built once.
 */
import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  type GraphQLEnumType,
  type GraphQLFieldConfigMap,
  type GraphQLInputFieldConfigMap,
  type GraphQLInputObjectType,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLOutputType,
} from 'graphql';
import { enumType, inputObjectType, objectType } from './graphql-types.js';
import type { ColumnInfo, TableInfo } from './model.js';
import type { SharedTypes } from './shared-types.js';

const AGGREGATE_FNS = ['avg', 'max', 'min', 'stddev', 'stddev_pop', 'stddev_samp', 'sum', 'var_pop', 'var_samp', 'variance'] as const;
const NUMERIC_FNS = new Set<string>(['avg', 'stddev', 'stddev_pop', 'stddev_samp', 'sum', 'var_pop', 'var_samp', 'variance']);

export const isAggregateFunction = (name: string) => (AGGREGATE_FNS as readonly string[]).includes(name);

/** The aggregate functions that apply to some visible column of the table, with those columns. */
function aggregateFunctions(t: TableInfo): { fn: string; columns: ColumnInfo[] }[] {
  return AGGREGATE_FNS.map((fn) => ({ fn, columns: t.columns.filter((c) => (NUMERIC_FNS.has(fn) ? c.column.type.traits.summable : c.column.type.traits.comparable)) })).filter(
    (f) => f.columns.length > 0,
  );
}

const typeName = (t: TableInfo, suffix: string) => t.naming.typeName(t.identifier + suffix);

/** The cache key of such a type: it is made only of the table (its names and catalog entry) and these of its columns. */
const key = (t: TableInfo, suffix: string, columns = t.columns) => `${suffix}\u0000${t.key}\u0000${columns.map((c) => c.column.name).join(',')}`;

export function selectColumnEnum(shared: SharedTypes, t: TableInfo): GraphQLEnumType {
  return shared.get(key(t, '_select_column'), () => {
    const values: Record<string, { value: string; description: string }> = {};
    for (const c of t.columns) values[c.fieldName] = { value: c.column.name, description: 'column name' };
    return enumType({ name: typeName(t, '_select_column'), description: `select columns of table ${JSON.stringify(t.catalog.name)}`, values });
  });
}

/** `<t>_<fn>_fields`: the columns the function applies to (shared by roles that see other columns too). */
function fnFieldsType(shared: SharedTypes, t: TableInfo, fn: string, columns: ColumnInfo[]): GraphQLObjectType {
  const suffix = `_${fn}_fields`;
  return shared.get(key(t, suffix, columns), () => {
    const type = (c: ColumnInfo) => (NUMERIC_FNS.has(fn) && fn !== 'sum' ? GraphQLFloat : (shared.columnType(t, c.column) as GraphQLOutputType));
    return objectType({ name: typeName(t, suffix), description: `aggregate ${fn} on columns`, fields: Object.fromEntries(columns.map((c) => [c.fieldName, { type: type(c) }])) });
  });
}

export function aggregateFieldsType(shared: SharedTypes, t: TableInfo): GraphQLObjectType {
  return shared.get(key(t, '_aggregate_fields'), () => {
    const fields: GraphQLFieldConfigMap<unknown, unknown> = {
      count: { type: new GraphQLNonNull(GraphQLInt), args: { columns: { type: new GraphQLList(new GraphQLNonNull(selectColumnEnum(shared, t))) }, distinct: { type: GraphQLBoolean } } },
    };
    for (const { fn, columns } of aggregateFunctions(t)) fields[fn] = { type: fnFieldsType(shared, t, fn, columns) };
    return objectType({ name: typeName(t, '_aggregate_fields'), description: `aggregate fields of ${JSON.stringify(t.catalog.name)}`, fields });
  });
}

export function aggregateOrderByType(shared: SharedTypes, t: TableInfo): GraphQLInputObjectType {
  return shared.get(key(t, '_aggregate_order_by'), () => {
    const orderBy = shared.orderByEnum(t.naming);
    const fields: GraphQLInputFieldConfigMap = { count: { type: orderBy } };
    for (const { fn, columns } of aggregateFunctions(t)) {
      const suffix = `_${fn}_order_by`;
      fields[fn] = { type: shared.get(key(t, suffix, columns), () => inputObjectType({ name: typeName(t, suffix), fields: Object.fromEntries(columns.map((c) => [c.fieldName, { type: orderBy }])) })) };
    }
    return inputObjectType({ name: typeName(t, '_aggregate_order_by'), description: `order by aggregate values of table ${JSON.stringify(t.catalog.name)}`, fields });
  });
}

/**
 * The columns a streaming subscription may use as its cursor: those with an order (as `max`/`min`
 * take) that the role sees in every row (an inherited role's partly granted column would let the
 * cursor compare values the selection hides).
 */
export const streamCursorColumns = (t: TableInfo): ColumnInfo[] => t.columns.filter((c) => c.column.type.traits.comparable && !t.permission.columns.get(c.column.name));

/** `<t>_stream_cursor_input`: `{initial_value: {<column>: value}, ordering}` (the well-known engine's names and texts). */
export function streamCursorInput(shared: SharedTypes, t: TableInfo): GraphQLInputObjectType {
  const columns = streamCursorColumns(t);
  return shared.get(key(t, '_stream_cursor_input', columns), () => {
    const value = inputObjectType({
      name: typeName(t, '_stream_cursor_value_input'),
      description: 'Initial value of the column from where the streaming should start',
      // By name, as introspection lists every other input's fields.
      fields: Object.fromEntries([...columns].sort((a, b) => (a.fieldName < b.fieldName ? -1 : 1)).map((c) => [c.fieldName, { type: shared.columnType(t, c.column) as GraphQLInputType, description: c.description ?? undefined }])),
    });
    return inputObjectType({
      name: typeName(t, '_stream_cursor_input'),
      description: `Streaming cursor of the table ${JSON.stringify(t.catalog.name)}`,
      fields: {
        [t.naming.fieldName('initial_value')]: { type: new GraphQLNonNull(value), description: 'Stream column input with initial value' },
        ordering: { type: shared.cursorOrderingEnum(t.naming), description: 'cursor ordering' },
      },
    });
  });
}
