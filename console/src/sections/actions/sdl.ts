/**
 * The well-known console's SDL forms of an action: the "Action definition" (one field of
 * `type Mutation` or `type Query`) and the "Type configuration" (the input, object, enum and
 * scalar types it uses), parsed with graphql-js into `create_action`'s definition and
 * `set_custom_types`' lists, and printed back for modifying.
 */
import { Kind, parse, print, type DefinitionNode, type FieldDefinitionNode, type InputValueDefinitionNode, type StringValueNode } from 'graphql';
import type { ActionArgument, ActionDefinition, CustomField, CustomTypes } from './types';

export class SdlError extends Error {}

function document(sdl: string, what: string) {
  try {
    return parse(sdl, { noLocation: true }).definitions;
  } catch (e) {
    throw new SdlError(`${what}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

const text = (d: StringValueNode | undefined) => (d ? { description: d.value } : {});

const field = (f: FieldDefinitionNode | InputValueDefinitionNode): CustomField => ({ name: f.name.value, type: print(f.type), ...text(f.description) });

export interface ParsedAction {
  name: string;
  type: 'query' | 'mutation';
  arguments: ActionArgument[];
  output_type: string;
  /** The field's description: the action's comment. */
  comment?: string;
}

/** `type Mutation { login(username: String!): LoginResponse }`: one field of the mutation or query root. */
export function parseActionDefinition(sdl: string): ParsedAction {
  const roots = document(sdl, 'Action definition').filter((d) => d.kind === Kind.OBJECT_TYPE_DEFINITION || d.kind === Kind.OBJECT_TYPE_EXTENSION);
  const fields = roots.flatMap((d) => {
    const name = 'name' in d && d.name ? d.name.value : '';
    if (name !== 'Mutation' && name !== 'Query') throw new SdlError(`Action definition: the action is a field of "type Mutation" or "type Query", not of "${name}"`);
    return ('fields' in d && d.fields ? d.fields : []).map((f) => ({ root: name, f: f as FieldDefinitionNode }));
  });
  if (fields.length !== 1) throw new SdlError(`Action definition: give exactly one field of "type Mutation" or "type Query" (found ${fields.length})`);
  const { root, f } = fields[0]!;
  return {
    name: f.name.value,
    type: root === 'Query' ? 'query' : 'mutation',
    arguments: (f.arguments ?? []).map(field),
    output_type: print(f.type),
    ...(f.description ? { comment: f.description.value } : {}),
  };
}

/** The "Type configuration": input, object (`type`), enum and scalar definitions. */
export function parseCustomTypes(sdl: string): CustomTypes {
  const out: Required<CustomTypes> = { input_objects: [], objects: [], scalars: [], enums: [] };
  if (!sdl.trim()) return out;
  for (const d of document(sdl, 'Type configuration') as DefinitionNode[]) {
    if (d.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION) out.input_objects.push({ name: d.name.value, ...text(d.description), fields: (d.fields ?? []).map(field) });
    else if (d.kind === Kind.OBJECT_TYPE_DEFINITION) out.objects.push({ name: d.name.value, ...text(d.description), fields: (d.fields ?? []).map(field) });
    else if (d.kind === Kind.SCALAR_TYPE_DEFINITION) out.scalars.push({ name: d.name.value, ...text(d.description) });
    else if (d.kind === Kind.ENUM_TYPE_DEFINITION) out.enums.push({ name: d.name.value, ...text(d.description), values: (d.values ?? []).map((v) => ({ value: v.name.value, ...text(v.description) })) });
    else throw new SdlError(`Type configuration: only input, type, enum and scalar definitions are custom types (found ${d.kind})`);
  }
  return out;
}

const KINDS = ['input_objects', 'objects', 'scalars', 'enums'] as const;

/**
 * `set_custom_types` replaces them all: the existing ones are kept but those the form defines
 * again (by name, whatever their kind); an object type keeps its relationships, which the SDL
 * does not carry (as the well-known console merges them).
 */
export function mergeCustomTypes(existing: CustomTypes, defined: CustomTypes): CustomTypes {
  const names = new Set(KINDS.flatMap((k) => (defined[k] ?? []).map((t) => t.name)));
  const out: CustomTypes = {};
  for (const k of KINDS) {
    const kept = (existing[k] ?? []).filter((t) => !names.has(t.name));
    const list = [...kept, ...(defined[k] ?? [])];
    if (list.length) (out as Record<string, unknown[]>)[k] = list;
  }
  for (const o of out.objects ?? []) {
    const before = existing.objects?.find((x) => x.name === o.name);
    if (before?.relationships && !o.relationships) o.relationships = before.relationships;
  }
  return out;
}

const describe = (d: string | undefined, indent = '') => (d ? `${indent}${JSON.stringify(d)}\n` : '');
const args = (list: ActionArgument[] | undefined) => (list?.length ? `(${list.map((a) => `${a.name}: ${a.type}`).join(', ')})` : '');

export function printActionDefinition(name: string, d: ActionDefinition, comment?: string): string {
  return `type ${d.type === 'query' ? 'Query' : 'Mutation'} {\n${describe(comment, '  ')}  ${name}${args(d.arguments)}: ${d.output_type}\n}\n`;
}

/** `[Name!]!` → `Name`. */
export const namedType = (t: string) => t.replace(/[[\]!\s]/g, '');

/** The custom types an action uses, following their fields, as SDL. */
export function printUsedTypes(d: ActionDefinition, types: CustomTypes): string {
  const wanted = [...(d.arguments ?? []).map((a) => namedType(a.type)), namedType(d.output_type)];
  const seen = new Set<string>();
  const blocks: string[] = [];
  while (wanted.length) {
    const name = wanted.shift()!;
    if (seen.has(name)) continue;
    seen.add(name);
    const fields = (list: CustomField[]) => list.map((f) => `${describe(f.description, '  ')}  ${f.name}: ${f.type}`).join('\n');
    const input = types.input_objects?.find((t) => t.name === name);
    const object = types.objects?.find((t) => t.name === name);
    const scalar = types.scalars?.find((t) => t.name === name);
    const en = types.enums?.find((t) => t.name === name);
    if (input) blocks.push(`${describe(input.description)}input ${name} {\n${fields(input.fields)}\n}`);
    else if (object) blocks.push(`${describe(object.description)}type ${name} {\n${fields(object.fields)}\n}`);
    else if (scalar) blocks.push(`${describe(scalar.description)}scalar ${name}`);
    else if (en) blocks.push(`${describe(en.description)}enum ${name} {\n${en.values.map((v) => `${describe(v.description, '  ')}  ${v.value}`).join('\n')}\n}`);
    wanted.push(...(input?.fields ?? object?.fields ?? []).map((f) => namedType(f.type)));
  }
  return blocks.length ? blocks.join('\n\n') + '\n' : '';
}
