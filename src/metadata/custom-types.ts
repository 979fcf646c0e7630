/**
 * Custom types (`set_custom_types`, the top-level `custom_types`): the input objects, objects,
 * scalars and enums actions use, in the well-known engine's export form. An object type may
 * have relationships to tracked tables (`object`/`array`, `field_mapping` from its fields to
 * the table's columns, `source` default `default`). The set is checked on its own here (names,
 * repeats); what depends on the sources (their scalars a field may name, tables, columns) is
 * resolution's (resolve/actions.ts), which `set_custom_types` runs too.
 */
import { badRequest } from '../errors/admin.js';
import { arrayOf, bool, isObject, nonEmptyStr, ObjectReader, oneOf, stringMap, type Json, strOrNull } from '../util/decode.js';
import { firstRepeat } from '../util/first-repeat.js';
import type { DatabaseCatalog, QualifiedName } from '../catalog/types.js';
import { GRAPHQL_SCALARS } from '../catalog/type-traits.js';
import { namedTypeOf, typeText } from './type-references.js';
import { graphqlName } from './names.js';
import type { Metadata } from './types.js';

export interface CustomField {
  name: string;
  type: string;
  description?: string;
}

export interface CustomRelationship {
  name: string;
  type: 'object' | 'array';
  remote_table: QualifiedName;
  source?: string;
  field_mapping: Record<string, string>;
}

export interface CustomObject {
  name: string;
  description?: string;
  fields: CustomField[];
  relationships?: CustomRelationship[];
}

export interface CustomInputObject {
  name: string;
  description?: string;
  fields: CustomField[];
}

export interface CustomScalar {
  name: string;
  description?: string;
}

export interface CustomEnumValue {
  value: string;
  description?: string;
  is_deprecated?: boolean;
}

export interface CustomEnum {
  name: string;
  description?: string;
  values: CustomEnumValue[];
}

export interface CustomTypes {
  input_objects?: CustomInputObject[];
  objects?: CustomObject[];
  scalars?: CustomScalar[];
  enums?: CustomEnum[];
}


/**
 * The scalars of the sources' databases, which an action's types may name without declaring them
 * (the well-known engine lets actions use the scalars of its databases' base types).
 */
export function databaseScalars(catalogs: Iterable<DatabaseCatalog | undefined>): Set<string> {
  const out = new Set<string>();
  for (const c of catalogs) for (const t of c?.baseTypes ?? []) if (!GRAPHQL_SCALARS.has(t.traits.scalar)) out.add(t.traits.scalar);
  return out;
}

const optionalText = (r: ObjectReader, key: string) => r.optional(key, strOrNull);

function withDescription<T extends object>(r: ObjectReader, out: T): T & { description?: string } {
  const d = optionalText(r, 'description');
  return d === undefined ? out : { ...out, description: d };
}

function field(v: unknown, path: string): CustomField {
  const r = ObjectReader.of(v, path);
  const f = withDescription(r, { name: r.required('name', graphqlName), type: r.required('type', typeText) });
  r.ignore('arguments');
  r.done();
  return f;
}

function fields(v: unknown, path: string): CustomField[] {
  const list = arrayOf(field)(v, path);
  if (list.length === 0) throw badRequest('parse-failed', 'a type needs at least one field', path);
  const i = firstRepeat(list, (f) => f.name);
  if (i >= 0) throw badRequest('parse-failed', `the field ${JSON.stringify(list[i]!.name)} is listed more than once`, `${path}[${i}]`);
  return list;
}

function table(v: unknown, path: string): QualifiedName {
  if (typeof v === 'string') return { schema: 'public', name: nonEmptyStr(v, path) };
  const r = ObjectReader.of(v, path);
  const t = { schema: r.withDefault('schema', nonEmptyStr, 'public'), name: r.required('name', nonEmptyStr) };
  r.done();
  return t;
}

function relationship(v: unknown, path: string): CustomRelationship {
  const r = ObjectReader.of(v, path);
  const rel: CustomRelationship = {
    name: r.required('name', graphqlName),
    type: r.required('type', oneOf(['object', 'array'] as const, 'relationship type')),
    remote_table: r.required('remote_table', table),
    field_mapping: r.required('field_mapping', stringMap),
  };
  const source = r.optional('source', nonEmptyStr);
  if (source !== undefined) rel.source = source;
  r.done();
  if (Object.keys(rel.field_mapping).length === 0) throw badRequest('parse-failed', 'field_mapping cannot be empty', `${path}.field_mapping`);
  return rel;
}

const named = <T>(read: (r: ObjectReader, name: string) => T) => (v: unknown, path: string): T => {
  const r = ObjectReader.of(v, path);
  const out = read(r, r.required('name', graphqlName));
  r.done();
  return out;
};

const inputObject = named((r, name): CustomInputObject => withDescription(r, { name, fields: r.required('fields', fields) }));
const scalar = named((r, name): CustomScalar => withDescription(r, { name }));
const enumValue = (v: unknown, path: string): CustomEnumValue => {
  const r = ObjectReader.of(v, path);
  const e: CustomEnumValue = withDescription(r, { value: r.required('value', graphqlName) });
  if (r.optional('is_deprecated', bool)) e.is_deprecated = true;
  r.done();
  if (['true', 'false', 'null'].includes(e.value)) throw badRequest('parse-failed', `${JSON.stringify(e.value)} cannot be an enum value`, `${path}.value`);
  return e;
};
const enumType = named((r, name): CustomEnum => {
  const values = r.required('values', arrayOf(enumValue));
  if (values.length === 0) throw badRequest('parse-failed', 'an enum needs at least one value', r.at('values'));
  const i = firstRepeat(values, (x) => x.value);
  if (i >= 0) throw badRequest('parse-failed', `the value ${JSON.stringify(values[i]!.value)} is listed more than once`, `${r.at('values')}[${i}]`);
  return withDescription(r, { name, values });
});
const object = named((r, name): CustomObject => {
  const o: CustomObject = withDescription(r, { name, fields: r.required('fields', fields) });
  const rels = r.optional('relationships', (x, p) => (x === null ? [] : arrayOf(relationship)(x, p)));
  if (rels?.length) {
    const i = firstRepeat(rels, (x) => x.name);
    if (i >= 0) throw badRequest('parse-failed', `the relationship ${JSON.stringify(rels[i]!.name)} is listed more than once`, `${r.at('relationships')}[${i}]`);
    const clash = rels.findIndex((x) => o.fields.some((f) => f.name === x.name));
    if (clash >= 0) throw badRequest('parse-failed', `the relationship ${JSON.stringify(rels[clash]!.name)} has the name of a field of ${JSON.stringify(name)}`, `${r.at('relationships')}[${clash}].name`);
    rels.forEach((rel, j) => {
      for (const f of Object.keys(rel.field_mapping)) {
        if (!o.fields.some((x) => x.name === f)) throw badRequest('not-exists', `field ${JSON.stringify(f)} does not exist in object type ${JSON.stringify(name)}`, `${r.at('relationships')}[${j}].field_mapping`);
      }
    });
    o.relationships = rels;
  }
  return o;
});

/** The kind of each custom type name. */
export type TypeKind = 'scalar' | 'enum' | 'input_object' | 'object';

export function typeKinds(ct: CustomTypes): Map<string, TypeKind> {
  const kinds = new Map<string, TypeKind>();
  for (const s of ct.scalars ?? []) kinds.set(s.name, 'scalar');
  for (const e of ct.enums ?? []) kinds.set(e.name, 'enum');
  for (const i of ct.input_objects ?? []) kinds.set(i.name, 'input_object');
  for (const o of ct.objects ?? []) kinds.set(o.name, 'object');
  return kinds;
}

/** Every type an action or custom type may name: the declared ones, and the databases' scalars. */
export function nameableTypes(ct: CustomTypes, scalars: Iterable<string>): Map<string, TypeKind> {
  const kinds = new Map<string, TypeKind>();
  for (const s of scalars) kinds.set(s, 'scalar');
  for (const [name, kind] of typeKinds(ct)) kinds.set(name, kind);
  return kinds;
}

/** The kind of a type an action or custom type names, or undefined when nothing defines it. */
export function kindOf(kinds: ReadonlyMap<string, TypeKind>, name: string): TypeKind | undefined {
  return kinds.get(name) ?? (GRAPHQL_SCALARS.has(name) ? 'scalar' : undefined);
}

/** Why a type text cannot be used where `allowed` kinds can, or null. */
export function typeProblem(kinds: ReadonlyMap<string, TypeKind>, text: string, allowed: readonly TypeKind[], where: string): string | null {
  const name = namedTypeOf(text);
  const kind = kindOf(kinds, name);
  if (!kind) return `the type ${JSON.stringify(name)} of ${where} is not defined in custom types`;
  if (!allowed.includes(kind)) return `the type ${JSON.stringify(name)} of ${where} is ${kind === 'input_object' ? 'an input object' : `a${kind === 'object' ? 'n object' : ` ${kind}`}`} type, which cannot be used there`;
  return null;
}

/** `set_custom_types`' args and the document's `custom_types`: each list checked, names unique, field types of the right kind. */
export function customTypes(v: unknown, path: string): CustomTypes {
  if (v === undefined || v === null) return {};
  const r = ObjectReader.of(v, path);
  const ct: CustomTypes = {};
  const list = <T>(key: keyof CustomTypes, item: (v: unknown, path: string) => T) => {
    const xs = r.optional(key, (x, p) => (x === null ? [] : arrayOf(item)(x, p)));
    if (xs?.length) (ct as Record<string, T[]>)[key] = xs;
  };
  list('input_objects', inputObject);
  list('objects', object);
  list('scalars', scalar);
  list('enums', enumType);
  r.done();
  const all: { name: string; at: string }[] = [];
  for (const key of ['scalars', 'enums', 'input_objects', 'objects'] as const) (ct[key] ?? []).forEach((t, i) => all.push({ name: t.name, at: `${path}.${key}[${i}]` }));
  const seen = new Set<string>();
  for (const t of all) {
    if (seen.has(t.name) || GRAPHQL_SCALARS.has(t.name)) throw badRequest('already-exists', `the type name ${JSON.stringify(t.name)} is defined more than once`, `${t.at}.name`);
    seen.add(t.name);
  }
  return ct;
}

/** Why a field of the custom types names a type it cannot (with the field's path under the custom types), or null. */
export function fieldTypeProblem(ct: CustomTypes, kinds: ReadonlyMap<string, TypeKind>): { path: string; message: string } | null {
  const lists = [
    ['input_objects', ct.input_objects, ['scalar', 'enum', 'input_object']],
    ['objects', ct.objects, ['scalar', 'enum', 'object']],
  ] as const;
  for (const [key, list, allowed] of lists) {
    for (const [i, t] of (list ?? []).entries()) {
      for (const [j, f] of t.fields.entries()) {
        const message = typeProblem(kinds, f.type, allowed, `field ${JSON.stringify(f.name)} of ${JSON.stringify(t.name)}`);
        if (message) return { path: `.${key}[${i}].fields[${j}].type`, message };
      }
    }
  }
  return null;
}

export function storedCustomTypes(m: Metadata): CustomTypes {
  return isObject(m.custom_types) ? (m.custom_types as unknown as CustomTypes) : {};
}

export function setCustomTypes(m: Metadata, ct: CustomTypes): void {
  if (Object.keys(ct).length === 0) delete m.custom_types;
  else m.custom_types = ct as unknown as Json;
}
