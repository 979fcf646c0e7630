/** Table names as the admin API accepts and prints them. */
import type { QualifiedName } from '../catalog/types.js';
import { isObject, nonEmptyStr, ObjectReader, str } from '../util/decode.js';
import { parseFailed } from '../errors/admin.js';

/**
 * `"author"` (schema public) or `{schema?, name}`: how tables and functions are named;
 * BigQuery's `{dataset, name}` too (the dataset is the schema, and is stored as `schema`).
 */
function qualifiedName(what: string) {
  return (v: unknown, path: string): QualifiedName => {
    if (typeof v === 'string') return { schema: 'public', name: v };
    if (!isObject(v)) throw parseFailed(`expected a ${what} name: a string or {"schema", "name"}`, path);
    const r = ObjectReader.of(v, path);
    const name = r.required('name', str);
    if (r.has('dataset') && r.has('schema')) throw parseFailed('expected "schema" or "dataset", not both', path);
    const schema = r.has('dataset') ? r.required('dataset', str) : r.withDefault('schema', str, 'public');
    r.done();
    return { schema, name };
  };
}

export const tableName = qualifiedName('table');
export const functionName = qualifiedName('function');

/** How the well-known engine prints a table in messages: `name` in public, else `schema.name`. */
export function showTable(t: QualifiedName): string {
  return t.schema === 'public' ? t.name : `${t.schema}.${t.name}`;
}

export const sameTable = (a: QualifiedName, b: QualifiedName) => a.schema === b.schema && a.name === b.name;

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
/** GraphQL spec "Names"; a leading `__` is reserved for introspection (graphql-js refuses such a schema). */
export const isGraphQLName = (s: string) => GRAPHQL_NAME.test(s) && !s.startsWith('__');

/**
 * The decoder of every metadata name that becomes a GraphQL name (relationships,
 * computed fields, custom names, root fields, namespaces): refused when stored, so a
 * name can never break the schema (GraphQL spec "Names").
 */
export function graphqlName(v: unknown, path: string): string {
  // Empty first, with upstream's NonEmptyText message.
  const s = nonEmptyStr(v, path);
  if (!isGraphQLName(s)) {
    const shown = JSON.stringify(s.length > 100 ? s.slice(0, 100) + '…' : s);
    throw parseFailed(s.startsWith('__') ? `${shown} is not allowed: names beginning with "__" are reserved by GraphQL` : `${shown} is not a valid GraphQL name`, path);
  }
  return s;
}

/**
 * A prefix or suffix that becomes part of GraphQL names (customizations): empty for none; a
 * part that starts names (`starts`) must be a name's beginning, any other only its letters.
 */
export const graphqlNamePart =
  (starts: boolean) =>
  (v: unknown, path: string): string => {
    const s = str(v, path);
    if (s !== '' && !(starts ? GRAPHQL_NAME : /^[_0-9A-Za-z]+$/).test(s)) throw parseFailed(`${JSON.stringify(s)} cannot be part of a GraphQL name`, path);
    return s;
  };
