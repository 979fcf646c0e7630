/**
 * Remote relationships to remote schemas as stored (spec "Remote relationship"): in a table
 * entry's `remote_relationships`, `{name, definition: {to_remote_schema: {remote_schema,
 * lhs_fields, remote_field}}}`. The legacy form (`remote_schema`, `service_fields`,
 * `remote_field` at the top of the arguments) is read into that one, as is the first form of a
 * relationship to another source's table (`remote_source` there) into `to_source`. `remote_field` is a chain
 * of the remote's own field names, one per level: `{f: {arguments: {...}, field: {g: {...}}}}`;
 * an argument value `"$column"` (anywhere in it) is a column of the row.
 */
import { badRequest } from '../errors/admin.js';
import { arrayOf, isObject, nonEmptyStr, ObjectReader, oneOf, stringMap, type Json, type JsonObject } from '../util/decode.js';
import type { QualifiedName } from '../catalog/types.js';
import { tableName } from './names.js';

export interface RemoteFieldStep {
  field: string;
  arguments: JsonObject;
}

export interface ToRemoteSchema {
  remote_schema: string;
  lhs_fields: string[];
  remote_field: JsonObject;
}

/** `remote_field` as its chain of fields (the last one is the relationship field's type). */
export function remoteFieldChain(v: unknown, path: string): RemoteFieldStep[] {
  const chain: RemoteFieldStep[] = [];
  let cur: unknown = v;
  let p = path;
  for (;;) {
    if (!isObject(cur) || Object.keys(cur).length !== 1) throw badRequest('parse-failed', 'remote_field must be an object with exactly one field name', p);
    const [field, spec] = Object.entries(cur)[0]!;
    p = `${p}.${field}`;
    const r = ObjectReader.of(spec, p);
    const args = r.withDefault('arguments', (x, ap) => ObjectReader.of(x, ap).value, {});
    const next = r.optional('field', (x) => x);
    r.done();
    chain.push({ field, arguments: args });
    if (next === undefined) return chain;
    cur = next;
    p = `${p}.field`;
  }
}

/** The columns an argument value refers to (`"$column"`). */
export function referencedColumns(v: Json, out = new Set<string>()): Set<string> {
  if (typeof v === 'string' && v.startsWith('$')) out.add(v.slice(1));
  else if (Array.isArray(v)) for (const x of v) referencedColumns(x, out);
  else if (isObject(v)) for (const x of Object.values(v)) referencedColumns(x, out);
  return out;
}

function toRemoteSchema(r: ObjectReader, fieldsKey: 'lhs_fields' | 'service_fields'): ToRemoteSchema {
  const remote_schema = r.required('remote_schema', nonEmptyStr);
  const lhs_fields = r.required(fieldsKey, arrayOf(nonEmptyStr));
  const remote_field = r.required('remote_field', (x, p) => {
    for (const step of remoteFieldChain(x, p)) {
      for (const c of referencedColumns(step.arguments)) {
        // Spec: every join key in remote_field must be among the listed fields.
        if (!lhs_fields.includes(c)) throw badRequest('invalid-params', `the argument value "$${c}" refers to a column not listed in ${fieldsKey}`, p);
      }
    }
    return x as JsonObject;
  });
  return { remote_schema, lhs_fields, remote_field };
}

/** The arguments of create/update: `{name, source?, table, definition: {to_remote_schema | to_source}}` or the legacy form. */
export function remoteRelationshipDefinition(r: ObjectReader): { definition: JsonObject } {
  if (r.has('definition')) {
    const definition = r.required('definition', (x, p) => {
      const d = ObjectReader.of(x, p);
      if (d.has('to_source')) {
        const to = d.required('to_source', toSource);
        d.done();
        return { to_source: to as unknown as Json };
      }
      // The definition of a legacy relationship as exported (`hasura_fields` is upstream's name of `service_fields`).
      if (!d.has('to_remote_schema')) {
        const legacy = toRemoteSchema(d, d.has('hasura_fields') ? ('hasura_fields' as 'lhs_fields') : 'service_fields');
        d.done();
        return legacy;
      }
      const to = d.required('to_remote_schema', (y, yp) => {
        const t = ObjectReader.of(y, yp);
        const out = toRemoteSchema(t, 'lhs_fields');
        t.done();
        return out;
      });
      d.done();
      return to;
    });
    return { definition: 'to_source' in definition ? (definition as JsonObject) : { to_remote_schema: definition as unknown as Json } };
  }
  // The well-known engine's first form of a relationship to another source's table (v2.0 betas):
  // `remote_source` beside `name`, read into `to_source`.
  if (r.has('remote_source')) return { definition: { to_source: r.required('remote_source', toSource) as unknown as Json } };
  const legacy = toRemoteSchema(r, 'service_fields');
  return { definition: { to_remote_schema: legacy as unknown as Json } };
}

export interface ToSource {
  relationship_type: 'object' | 'array';
  source: string;
  table: QualifiedName;
  field_mapping: Record<string, string>;
}

function toSource(v: unknown, path: string): ToSource {
  const r = ObjectReader.of(v, path);
  const out: ToSource = {
    relationship_type: r.required('relationship_type', oneOf(['object', 'array'] as const, 'relationship type')),
    source: r.withDefault('source', nonEmptyStr, 'default'),
    table: r.required('table', tableName),
    field_mapping: r.required('field_mapping', stringMap),
  };
  r.done();
  if (Object.keys(out.field_mapping).length === 0) throw badRequest('invalid-params', 'field_mapping must map at least one column', `${path}.field_mapping`);
  return out;
}

/** A stored relationship's `to_source` part, or null. */
export function storedToSource(rr: JsonObject): ToSource | null {
  const def = isObject(rr.definition) ? rr.definition : null;
  const to = def && isObject(def.to_source) ? def.to_source : null;
  if (!to || (to.relationship_type !== 'object' && to.relationship_type !== 'array') || !isObject(to.field_mapping)) return null;
  try {
    return { relationship_type: to.relationship_type, source: typeof to.source === 'string' ? to.source : 'default', table: tableName(to.table, '$'), field_mapping: to.field_mapping as Record<string, string> };
  } catch {
    return null;
  }
}

/** A stored relationship's `to_remote_schema` part, or null (a `to_source` one, or a malformed one). */
export function storedToRemoteSchema(rr: JsonObject): ToRemoteSchema | null {
  const def = isObject(rr.definition) ? rr.definition : null;
  if (!def) return null;
  const to = isObject(def.to_remote_schema) ? def.to_remote_schema : typeof def.remote_schema === 'string' ? def : null;
  if (!to || typeof to.remote_schema !== 'string') return null;
  const lhs = to.lhs_fields ?? to.hasura_fields ?? to.service_fields;
  if (!Array.isArray(lhs) || !lhs.every((x) => typeof x === 'string') || !isObject(to.remote_field)) return null;
  return { remote_schema: to.remote_schema, lhs_fields: lhs as string[], remote_field: to.remote_field };
}

