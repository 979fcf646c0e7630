/**
 * Tracked SQL functions as root fields (`<fn>(args: ...)` and `<fn>_aggregate`): a
 * function returning rows of a table is usable by every role that may select from
 * that table (function permissions are inferred, as the well-known engine does by
 * default). VOLATILE functions, exposed as mutations there, are not served yet.
 */
import type { CatalogFunction, DatabaseCatalog } from '../catalog/types.js';
import { entryFunction } from '../metadata/functions.js';
import { isGraphQLName, sameTable } from '../metadata/names.js';
import type { SourceMetadata } from '../metadata/types.js';
import { isObject } from '../util/decode.js';
import { tableKey } from '../catalog/types.js';
import type { FunctionInfo, TableInfo } from './model.js';
import { functionRootFields, type SourceNaming } from './naming.js';

type Configuration = Record<string, unknown>;

const configurationOf = (entry: NonNullable<SourceMetadata['functions']>[number]): Configuration => (isObject(entry.configuration) ? entry.configuration : {});
const sessionArgumentOf = (config: Configuration) => (typeof config.session_argument === 'string' ? config.session_argument : null);
/** What a tracked function's caller gives: every argument but the session argument. */
const inputArgsOf = (fn: CatalogFunction, config: Configuration) => fn.args.filter((a) => a.name !== sessionArgumentOf(config));

/**
 * The arguments `<fn>_args` lists, for a computed field whose own are `computedArgs` (all but
 * the row and session arguments). A function tracked as a root field too has one type of that
 * name in every schema of the snapshot (shared-types.ts), whichever field is made first: the root
 * field's, with the row argument (the computed field fills it with the row whatever is given).
 */
export function functionArgsTypeArgs(source: SourceMetadata, fn: CatalogFunction, computedArgs: CatalogFunction['args']): CatalogFunction['args'] {
  const entry = (source.functions ?? []).find((e) => sameTable(fn, entryFunction(e)));
  return entry ? inputArgsOf(fn, configurationOf(entry)) : computedArgs;
}

/** A tracked function the query root exposes: one overload, returning a set of rows of a table's type, not exposed as a mutation. */
export interface ExposedFunction {
  entry: NonNullable<SourceMetadata['functions']>[number];
  fn: CatalogFunction;
  config: Configuration;
  /** The table whose rows it returns (tableKey). */
  tableKey: string;
}

export function exposedFunctions(source: SourceMetadata, intro: DatabaseCatalog): ExposedFunction[] {
  const out: ExposedFunction[] = [];
  for (const entry of source.functions ?? []) {
    const name = entryFunction(entry);
    const overloads = intro.functions.filter((f) => sameTable(f, name) && !f.isAggregate);
    const fn = overloads[0];
    if (overloads.length !== 1 || !fn || !fn.returnsSet || fn.returnType.kind !== 'composite') continue;
    const config = configurationOf(entry);
    const exposedAs = config.exposed_as ?? (fn.volatility === 'volatile' ? 'mutation' : 'query');
    if (exposedAs !== 'query') continue;
    out.push({ entry, fn, config, tableKey: tableKey(source.name, { schema: fn.returnType.schema, name: fn.returnType.name }) });
  }
  return out;
}

export function functionInfos(source: SourceMetadata, naming: SourceNaming, intro: DatabaseCatalog, tables: Map<string, TableInfo>): FunctionInfo[] {
  const out: FunctionInfo[] = [];
  for (const { entry, fn, config, tableKey: key } of exposedFunctions(source, intro)) {
    const table = tables.get(key);
    if (!table) continue;
    const { rootName, aggregateName } = functionRootFields(naming, fn, config);
    // Never a broken schema: a name that is not a GraphQL name leaves the function out (tracked-tables.ts).
    if (!isGraphQLName(rootName) || !isGraphQLName(aggregateName)) continue;
    const sessionArgument = sessionArgumentOf(config);
    out.push({
      fn,
      table,
      rootName,
      aggregateName,
      sessionArgument,
      inputArgs: inputArgsOf(fn, config),
      description: typeof entry.comment === 'string' ? entry.comment : fn.comment,
    });
  }
  return out;
}
