/**
 * Tracked SQL functions of a pg source: the stored entry `{function, configuration,
 * comment, permissions}`, and whether the database's function can be tracked, by the
 * well-known engine's rules (one overload, no VARIADIC, returns rows of a tracked table,
 * GraphQL-compliant names, a json session argument).
 */
import type { CatalogFunction, DatabaseCatalog, QualifiedName } from '../catalog/types.js';
import { arrayOf, isObject, ObjectReader, oneOf, str, type Json, type JsonObject } from '../util/decode.js';
import { badRequest } from '../errors/admin.js';
import type { Dependent } from './dependencies.js';
import { functionName, graphqlName, isGraphQLName, sameTable, showTable } from './names.js';
import { reasonMessage } from './reasons.js';
import type { Inconsistency } from './resolve/types.js';
import type { Metadata, SourceMetadata } from './types.js';

/** A tracked function's `configuration`, in stored form. */
export function functionConfiguration(v: unknown, path: string): JsonObject {
  const r = ObjectReader.of(v, path);
  const out: JsonObject = {};
  const customName = r.optional('custom_name', graphqlName);
  if (customName !== undefined) out.custom_name = customName;
  const roots = r.optional('custom_root_fields', (x, p) => {
    const o = ObjectReader.of(x, p);
    const res: JsonObject = {};
    for (const key of ['function', 'function_aggregate']) {
      const name = o.optional(key, graphqlName);
      if (name !== undefined) res[key] = name;
    }
    o.done();
    // As the well-known engine when parsing the configuration.
    if (res.function !== undefined && res.function === res.function_aggregate) {
      throw badRequest('parse-failed', `the following custom root field names are duplicated: ${JSON.stringify(res.function)} and ${JSON.stringify(res.function_aggregate)}`, p);
    }
    return res;
  });
  if (roots && Object.keys(roots).length > 0) out.custom_root_fields = roots;
  const session = r.optional('session_argument', str);
  if (session !== undefined) out.session_argument = session;
  const exposedAs = r.optional('exposed_as', oneOf(['query', 'mutation'] as const, 'exposed_as'));
  if (exposedAs !== undefined) out.exposed_as = exposedAs;
  r.done();
  return out;
}

/** The function a stored entry names (entries are validated on the way in). */
export function entryFunction(entry: JsonObject): QualifiedName {
  const f = entry.function;
  if (typeof f === 'string') return { schema: 'public', name: f };
  const o = isObject(f) ? f : {};
  return { schema: typeof o.schema === 'string' ? o.schema : 'public', name: String(o.name) };
}

export const findTrackedFunction = (s: SourceMetadata, name: QualifiedName) =>
  (s.functions ?? []).find((f) => sameTable(entryFunction(f), name));

/** Why the database's function cannot be tracked with this configuration (empty: it can). */
function trackingProblems(fn: CatalogFunction, config: JsonObject, catalog: DatabaseCatalog): string[] {
  const problems: string[] = [];
  if (!isGraphQLName(fn.name) && config.custom_name === undefined) problems.push('function name is not a legal GraphQL identifier');
  if (fn.hasVariadic) problems.push('function with "VARIADIC" parameters are not supported');
  if (fn.returnType.kind !== 'composite') problems.push('the function does not return a "COMPOSITE" type');
  if (!catalog.tables.some((t) => sameTable(t, fn.returnType))) problems.push('the function does not return a table');
  if (config.exposed_as === 'mutation' && fn.volatility !== 'volatile') {
    problems.push(
      'the function was requested to be exposed as a mutation, but is not marked VOLATILE. Maybe the function was given the wrong volatility when it was defined?',
    );
  }
  const badArgs = fn.args.flatMap((a) => (a.name !== null && !isGraphQLName(a.name) ? [a.name] : []));
  if (badArgs.length > 0) problems.push(`the function arguments ${badArgs.join(',')} are not in compliance with GraphQL spec`);
  const session = config.session_argument;
  if (typeof session === 'string') {
    const arg = fn.args.find((a) => a.name === session);
    if (!arg) problems.push(`given session argument ${JSON.stringify(session)} not the input argument of the function`);
    else if (arg.type.traits.family !== 'json') problems.push(`given session argument ${JSON.stringify(session)} is not of type json`);
  }
  return problems;
}

/** Why a tracked function does not resolve against the catalog, or null. */
function functionInconsistency(s: SourceMetadata, entry: JsonObject, catalog: DatabaseCatalog): string | null {
  const name = entryFunction(entry);
  const shown = JSON.stringify(showTable(name));
  const overloads = catalog.functions.filter((f) => sameTable(f, name) && !f.isAggregate);
  const [fn] = overloads;
  if (!fn) return `in function ${shown}: no such function exists: ${shown}`;
  if (overloads.length > 1) return `in function ${shown}: function ${shown} is overloaded. Overloaded functions are not supported`;
  const problems = trackingProblems(fn, isObject(entry.configuration) ? entry.configuration : {}, catalog);
  if (problems.length > 0) return `in function ${shown}: the function ${shown} cannot be tracked ${reasonMessage(problems)}`;
  // The function depends on its return table being tracked (a dependency, so no "in function" context).
  if (!s.tables.some((t) => sameTable(t.table, fn.returnType))) return `table ${JSON.stringify(showTable(fn.returnType))} is not tracked`;
  return null;
}

function removeFunction(source: string, name: QualifiedName) {
  return (m: Metadata) => {
    const s = m.sources.find((x) => x.name === source);
    if (s?.functions) s.functions = s.functions.filter((f) => !sameTable(entryFunction(f), name));
  };
}

export function resolveFunctions(s: SourceMetadata, catalog: DatabaseCatalog): Inconsistency[] {
  const out: Inconsistency[] = [];
  for (const entry of s.functions ?? []) {
    const reason = functionInconsistency(s, entry, catalog);
    if (reason === null) continue;
    const name = entryFunction(entry);
    out.push({
      object: {
        type: 'function',
        name: `function ${showTable(name)} in source ${s.name}`,
        definition: name as unknown as Json,
        reason: `Inconsistent object: ${reason}`,
      },
      remove: removeFunction(s.name, name),
    });
  }
  return out;
}

/** Tracked functions returning rows of `table`: untracking the table breaks them. */
export function functionsReturning(s: SourceMetadata, catalog: DatabaseCatalog | undefined, table: QualifiedName): Dependent[] {
  return (s.functions ?? []).flatMap((entry) => {
    const name = entryFunction(entry);
    const fn = catalog?.functions.find((f) => sameTable(f, name));
    if (!fn || !sameTable(fn.returnType, table)) return [];
    return [{ description: `function ${showTable(name)}`, remove: removeFunction(s.name, name) }];
  });
}

/**
 * A function entry of a metadata document: `{function, configuration?, comment?,
 * permissions?}`, or (version 1 documents) the function name alone.
 */
export function functionEntry(v: unknown, path: string): JsonObject {
  if (!isObject(v) || !('function' in v)) {
    const name = functionName(v, path);
    return { function: { schema: name.schema, name: name.name } };
  }
  const r = ObjectReader.of(v, path);
  const name = r.required('function', functionName);
  const out: JsonObject = { function: { schema: name.schema, name: name.name } };
  const configuration = r.optional('configuration', functionConfiguration);
  if (configuration && Object.keys(configuration).length > 0) out.configuration = configuration;
  const comment = r.optional('comment', str);
  if (comment !== undefined) out.comment = comment;
  // Function permissions are validated where roles are resolved.
  const permissions = r.optional('permissions', arrayOf((x) => x as Json));
  if (permissions && permissions.length > 0) out.permissions = permissions;
  r.done();
  return out;
}
