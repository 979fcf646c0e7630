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
import type { SourceNaming } from './naming.js';

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

export function functionInfos(source: SourceMetadata, naming: SourceNaming, intro: DatabaseCatalog, tables: Map<string, TableInfo>): FunctionInfo[] {
  const out: FunctionInfo[] = [];
  for (const entry of source.functions ?? []) {
    const name = entryFunction(entry);
    const overloads = intro.functions.filter((f) => sameTable(f, name) && !f.isAggregate);
    const fn = overloads[0];
    if (overloads.length !== 1 || !fn || !fn.returnsSet || fn.returnType.kind !== 'composite') continue;
    const config = configurationOf(entry);
    const exposedAs = config.exposed_as ?? (fn.volatility === 'volatile' ? 'mutation' : 'query');
    if (exposedAs !== 'query') continue;
    const table = tables.get(tableKey(source.name, { schema: fn.returnType.schema, name: fn.returnType.name }));
    if (!table) continue;
    const base = typeof config.custom_name === 'string' ? config.custom_name : fn.schema === 'public' ? fn.name : `${fn.schema}_${fn.name}`;
    const roots = isObject(config.custom_root_fields) ? config.custom_root_fields : {};
    const sessionArgument = sessionArgumentOf(config);
    const inputArgs = inputArgsOf(fn, config);
    const rootName = typeof roots.function === 'string' ? naming.customRootField(roots.function) : naming.rootField(base);
    const aggregateName = typeof roots.function_aggregate === 'string' ? naming.customRootField(roots.function_aggregate) : naming.rootField(`${base}_aggregate`);
    // Never a broken schema: a name that is not a GraphQL name leaves the function out (tracked-tables.ts).
    if (!isGraphQLName(rootName) || !isGraphQLName(aggregateName)) continue;
    out.push({
      fn,
      table,
      rootName,
      aggregateName,
      sessionArgument,
      inputArgs,
      description: typeof entry.comment === 'string' ? entry.comment : fn.comment,
    });
  }
  return out;
}
