/**
 * Computed fields (spec "Computed field"): the stored form `{name, definition:
 * {function: {schema, name}, table_argument?, session_argument?}, comment?}` (BigQuery's
 * definition: `{function: {dataset, name}, argument_mapping: {<argument>: <column>},
 * return_table: {dataset, name}}`), and the checks the well-known engine makes of the
 * function before it becomes a field.
 */
import type { CatalogFunction, DatabaseCatalog, CatalogType, QualifiedName } from '../catalog/types.js';
import { isObject, ObjectReader, str, type Json, type JsonObject } from '../util/decode.js';
import { functionName, graphqlName, isGraphQLName, sameTable, showTable, tableName } from './names.js';
import { reasonMessage } from './reasons.js';
import type { ComputedFieldReturn, ResolvedComputedField } from './resolve/types.js';

/** `{function, table_argument?, session_argument?}` in stored form (the function as `{schema, name}`). */
export function computedFieldDefinition(v: unknown, path: string): JsonObject {
  const r = ObjectReader.of(v, path);
  const fn = r.required('function', functionName);
  const tableArgument = r.optional('table_argument', str);
  const sessionArgument = r.optional('session_argument', str);
  r.done();
  return {
    function: fn as unknown as Json,
    ...(tableArgument !== undefined ? { table_argument: tableArgument } : {}),
    ...(sessionArgument !== undefined ? { session_argument: sessionArgument } : {}),
  };
}

/** BigQuery's definition, stored with datasets as given: the function's arguments filled from columns, rows of a tracked table. */
export function bigqueryComputedFieldDefinition(v: unknown, path: string): JsonObject {
  const r = ObjectReader.of(v, path);
  const fn = r.required('function', functionName);
  const mapping = r.required('argument_mapping', (m, p) => {
    const o = ObjectReader.of(m, p);
    return Object.fromEntries(Object.keys(o.value).map((k) => [k, o.required(k, str)]));
  });
  const returnTable = r.required('return_table', tableName);
  r.done();
  return { function: { dataset: fn.schema, name: fn.name }, argument_mapping: mapping, return_table: { dataset: returnTable.schema, name: returnTable.name } };
}

/** A stored computed field `{name, definition, comment?}` (replace_metadata input: the source's kind is not known, the definition's keys tell). */
export function computedFieldEntry(v: unknown, path: string): JsonObject {
  const r = ObjectReader.of(v, path);
  const name = r.required('name', graphqlName);
  const definition = r.required('definition', (d, p) => (isObject(d) && 'argument_mapping' in d ? bigqueryComputedFieldDefinition : computedFieldDefinition)(d, p));
  const comment = r.optional('comment', str);
  r.done();
  return { name, definition, ...(comment !== undefined ? { comment } : {}) };
}

export const computedFieldFunction = (entry: JsonObject): QualifiedName => functionName((entry.definition as JsonObject).function, '$');

/** Why a computed field does not resolve (the message the well-known engine gives). */
export class ComputedFieldError extends Error {}

const isRowOf = (type: CatalogType, table: QualifiedName) => type.kind === 'composite' && sameTable(type, table);
const typeAsTable = (type: CatalogType) => showTable({ schema: type.schema, name: type.name });

export interface ComputedFieldScope {
  table: QualifiedName;
  catalog: DatabaseCatalog;
  /** Whether a table is tracked and exists in the catalog. */
  isTracked(t: QualifiedName): boolean;
}

/** The computed field a stored entry defines; throws a ComputedFieldError when the function does not fit. */
export function resolveComputedField(entry: JsonObject, scope: ComputedFieldScope): ResolvedComputedField {
  const name = String(entry.name);
  const definition = entry.definition as JsonObject;
  const qf = computedFieldFunction(entry);
  const overloads = scope.catalog.functions.filter((f) => sameTable(f, qf));
  const fnText = JSON.stringify(showTable(qf));
  if (overloads.length === 0) throw new ComputedFieldError(`no such function exists: ${fnText}`);
  if (overloads.length > 1) throw new ComputedFieldError(`function ${fnText} is overloaded. Overloaded functions are not supported`);
  const fn = overloads[0]!;
  if (isObject(definition.argument_mapping)) return mappedComputedField(entry, fn, fnText, scope);

  const problems: string[] = [];
  if (!isGraphQLName(name)) problems.push(`${JSON.stringify(name)} is not valid GraphQL name`);
  if (fn.volatility === 'volatile') problems.push(`the function ${fnText} is of type VOLATILE; cannot be added as a computed field`);
  const returns = returnOf(fn, fnText, scope, problems);
  const tableArgument = rowArgument(fn, fnText, definition.table_argument, scope.table, problems);
  const sessionArgument = sessionArgumentOf(fn, fnText, definition.session_argument, problems);
  if (problems.length > 0) {
    throw new ComputedFieldError(
      `the computed field ${JSON.stringify(name)} cannot be added to table ${JSON.stringify(showTable(scope.table))} ${reasonMessage(problems)}`,
    );
  }
  const implicit = new Set([tableArgument, sessionArgument]);
  return {
    name,
    function: fn,
    returns: returns!,
    tableArgument: tableArgument!,
    columnArguments: [],
    sessionArgument,
    inputArguments: fn.args.filter((_, i) => !implicit.has(i)),
    description: typeof entry.comment === 'string' ? entry.comment : (fn.comment ?? `A computed field, executes function ${fnText}`),
  };
}

/** BigQuery: the table function's arguments named in `argument_mapping` take the row's columns; it returns rows of `return_table`. */
function mappedComputedField(entry: JsonObject, fn: CatalogFunction, fnText: string, scope: ComputedFieldScope): ResolvedComputedField {
  const name = String(entry.name);
  const definition = entry.definition as JsonObject;
  const problems: string[] = [];
  if (!fn.returnsSet) problems.push(`the function ${fnText} is not a table-valued function`);
  const table = scope.catalog.tables.find((t) => sameTable(t, scope.table));
  const columnArguments: [number, string][] = [];
  for (const [argument, column] of Object.entries(definition.argument_mapping as JsonObject)) {
    const index = fn.args.findIndex((a) => a.name === argument);
    if (index < 0) problems.push(`${JSON.stringify(argument)} is not an input argument of the function ${fnText}`);
    else if (!table?.columns.some((c) => c.name === column)) problems.push(`${JSON.stringify(column)} is not a column of table ${JSON.stringify(showTable(scope.table))}`);
    else columnArguments.push([index, String(column)]);
  }
  const returns = tableName(definition.return_table, '$');
  if (!scope.isTracked(returns)) problems.push(`the function ${fnText} returning set of table ${JSON.stringify(showTable(returns))} is not tracked or not found in database`);
  if (problems.length > 0) {
    throw new ComputedFieldError(`the computed field ${JSON.stringify(name)} cannot be added to table ${JSON.stringify(showTable(scope.table))} ${reasonMessage(problems)}`);
  }
  const mapped = new Set(columnArguments.map(([i]) => i));
  return {
    name,
    function: fn,
    returns: { kind: 'table', table: returns },
    tableArgument: null,
    columnArguments,
    sessionArgument: null,
    inputArguments: fn.args.filter((_, i) => !mapped.has(i)),
    description: typeof entry.comment === 'string' ? entry.comment : (fn.comment ?? `A computed field, executes function ${fnText}`),
  };
}

function returnOf(fn: CatalogFunction, fnText: string, scope: ComputedFieldScope, problems: string[]): ComputedFieldReturn | null {
  const t = fn.returnType;
  if (t.kind === 'composite') {
    const table = { schema: t.schema, name: t.name };
    if (!scope.isTracked(table)) {
      problems.push(`the function ${fnText} returning set of table ${JSON.stringify(showTable(table))} is not tracked or not found in database`);
    }
    return { kind: 'table', table };
  }
  if (t.kind !== 'base') problems.push(`the function ${fnText} returning type ${t.display} is not a BASE type`);
  return { kind: 'scalar', type: t };
}

/** The index of the table-row argument: the named one, else the first. */
function rowArgument(fn: CatalogFunction, fnText: string, named: Json | undefined, table: QualifiedName, problems: string[]): number | null {
  let index = 0;
  let what = `first argument of the function ${fnText}`;
  if (typeof named === 'string') {
    index = fn.args.findIndex((a) => a.name === named);
    if (index < 0) {
      problems.push(`${JSON.stringify(named)} is not an input argument of the function ${fnText}`);
      return null;
    }
    what = `${JSON.stringify(named)} argument of the function ${fnText}`;
  } else if (fn.args.length === 0) {
    problems.push(`the function ${fnText} has no input arguments`);
    return null;
  }
  const type = fn.args[index]!.type;
  if (type.kind !== 'composite') problems.push(`${what} is not COMPOSITE type`);
  if (!isRowOf(type, table)) {
    problems.push(`${what} of type ${JSON.stringify(typeAsTable(type))} is not the table to which the computed field is being added`);
  }
  return index;
}

function sessionArgumentOf(fn: CatalogFunction, fnText: string, named: Json | undefined, problems: string[]): number | null {
  if (typeof named !== 'string') return null;
  const index = fn.args.findIndex((a) => a.name === named);
  if (index < 0) {
    problems.push(`${JSON.stringify(named)} is not an input argument of the function ${fnText}`);
    return null;
  }
  const type = fn.args[index]!.type;
  if (type.traits.family !== 'json' && type.traits.family !== 'binary-json') {
    problems.push(`${JSON.stringify(named)} argument of the function ${fnText} is not of type JSON`);
  }
  return index;
}
