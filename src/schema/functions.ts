/**
 * Tracked SQL functions as root fields (`<fn>(args: ...)` and `<fn>_aggregate`): a
 * function returning rows of a table is usable by every role that may select from
 * that table (function permissions are inferred, as the well-known engine does by
 * default). VOLATILE functions, exposed as mutations there, are not served yet.
 */
import type { CatalogFunction, DatabaseCatalog } from '../metadata/catalog.js';
import { entryFunction } from '../metadata/functions.js';
import { isGraphQLName, sameTable } from '../metadata/names.js';
import type { SourceMetadata } from '../metadata/types.js';
import { isObject } from '../util/decode.js';
import type { TableInfo } from './model.js';
import { tableKey } from './model.js';
import type { SourceNaming } from './naming.js';

export interface FunctionInfo {
  fn: CatalogFunction;
  /** The table whose rows it returns, as the role sees it. */
  table: TableInfo;
  rootName: string;
  aggregateName: string;
  sessionArgument: string | null;
  /** Arguments the caller gives (all but the session argument). */
  inputArgs: CatalogFunction['args'];
  description: string | null;
}

export function functionInfos(source: SourceMetadata, naming: SourceNaming, intro: DatabaseCatalog, tables: Map<string, TableInfo>): FunctionInfo[] {
  const out: FunctionInfo[] = [];
  for (const entry of source.functions ?? []) {
    const name = entryFunction(entry);
    const overloads = intro.functions.filter((f) => sameTable(f, name) && !f.isAggregate);
    const fn = overloads[0];
    if (overloads.length !== 1 || !fn || !fn.returnsSet || fn.returnType.kind !== 'c') continue;
    const config = isObject(entry.configuration) ? entry.configuration : {};
    const exposedAs = config.exposed_as ?? (fn.volatility === 'volatile' ? 'mutation' : 'query');
    if (exposedAs !== 'query') continue;
    const table = tables.get(tableKey(source.name, { schema: fn.returnType.schema, name: fn.returnType.name }));
    if (!table) continue;
    const base = typeof config.custom_name === 'string' ? config.custom_name : fn.schema === 'public' ? fn.name : `${fn.schema}_${fn.name}`;
    const roots = isObject(config.custom_root_fields) ? config.custom_root_fields : {};
    const sessionArgument = typeof config.session_argument === 'string' ? config.session_argument : null;
    const inputArgs = fn.args.filter((a) => a.name !== sessionArgument);
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
