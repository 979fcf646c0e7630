/**
 * Actions and custom types as the well-known engine's tool keeps them: their GraphQL shape
 * (each action a field of `type Query` or `type Mutation` with its arguments and output type,
 * the custom types as GraphQL types) in `actions.graphql`, and what GraphQL cannot say (the
 * handler, kind, headers, permissions, comments, the custom objects' relationships) in
 * `actions.yaml`, each custom type listed there by name.
 */
import { GraphQLError, Kind, parse, print, type ConstDirectiveNode, type DefinitionNode, type DocumentNode, type FieldDefinitionNode, type InputValueDefinitionNode, type StringValueNode } from 'graphql';
import { CliError } from '../errors.js';
import type { JsonMap } from './yaml-text.js';

/** The custom type kinds, in the order they are written, and what of each goes to GraphQL. */
const KINDS = [
  { key: 'enums', sdl: ['description', 'values'] },
  { key: 'input_objects', sdl: ['description', 'fields'] },
  { key: 'objects', sdl: ['description', 'fields'] },
  { key: 'scalars', sdl: ['description'] },
] as const;
/** What of an action's definition goes to GraphQL. */
const ACTION_SDL = ['type', 'arguments', 'output_type'];

const list = (v: unknown): JsonMap[] => (Array.isArray(v) ? (v as JsonMap[]) : []);
const without = (o: JsonMap, keys: readonly string[]): JsonMap => Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));
const described = (d: unknown, indent = ''): string => (typeof d === 'string' && d !== '' ? `${indent}${JSON.stringify(d)}\n` : '');
const inputValue = (f: JsonMap, indent: string): string => `${described(f.description, indent)}${indent}${String(f.name)}: ${String(f.type)}`;

function actionField(a: JsonMap): string {
  const def = (a.definition ?? {}) as JsonMap;
  const args = list(def.arguments);
  const argText = args.length === 0 ? '' : `(\n${args.map((x) => inputValue(x, '    ')).join('\n')}\n  )`;
  return `  ${String(a.name)}${argText}: ${String(def.output_type)}`;
}

function typeText(kind: (typeof KINDS)[number]['key'], t: JsonMap): string {
  const head = described(t.description);
  const name = String(t.name);
  switch (kind) {
    case 'enums':
      return `${head}enum ${name} {\n${list(t.values).map((v) => `${described(v.description, '  ')}  ${String(v.value)}${v.is_deprecated === true ? ' @deprecated' : ''}`).join('\n')}\n}`;
    case 'input_objects':
      return `${head}input ${name} {\n${list(t.fields).map((f) => inputValue(f, '  ')).join('\n')}\n}`;
    case 'objects':
      return `${head}type ${name} {\n${list(t.fields).map((f) => inputValue(f, '  ')).join('\n')}\n}`;
    case 'scalars':
      return `${head}scalar ${name}`;
  }
}

/** `actions.graphql` and `actions.yaml`'s content for the document's actions and custom types. */
export function actionsFiles(actions: JsonMap[] | undefined, customTypes: JsonMap | undefined): { graphql: string; yaml: JsonMap } {
  const all = actions ?? [];
  const parts: string[] = [];
  for (const root of ['query', 'mutation'] as const) {
    const fields = all.filter((a) => ((a.definition as JsonMap | undefined)?.type === 'query') === (root === 'query')).map(actionField);
    if (fields.length > 0) parts.push(`type ${root === 'query' ? 'Query' : 'Mutation'} {\n${fields.join('\n')}\n}`);
  }
  for (const { key } of KINDS) for (const t of list(customTypes?.[key])) parts.push(typeText(key, t));
  // Printed by graphql-js so the file has one canonical form (block strings, spacing).
  const graphql = parts.length === 0 ? '' : `${print(parse(parts.join('\n\n')))}\n`;
  const yaml = {
    actions: all.map((a) => ({ ...a, definition: without((a.definition ?? {}) as JsonMap, ACTION_SDL) })),
    custom_types: Object.fromEntries(KINDS.map(({ key, sdl }) => [key, list(customTypes?.[key]).map((t) => without(t, sdl))])),
  };
  return { graphql, yaml };
}

const description = (d: StringValueNode | undefined): JsonMap => (d ? { description: d.value } : {});
const deprecated = (ds: readonly ConstDirectiveNode[] | undefined): JsonMap => (ds?.some((d) => d.name.value === 'deprecated') ? { is_deprecated: true } : {});
const inputValues = (vs: readonly InputValueDefinitionNode[] | undefined): JsonMap[] =>
  (vs ?? []).map((v) => ({ name: v.name.value, type: print(v.type), ...description(v.description) }));
const fieldValues = (vs: readonly FieldDefinitionNode[] | undefined): JsonMap[] =>
  (vs ?? []).map((v) => ({ name: v.name.value, type: print(v.type), ...description(v.description) }));

/** The custom type a GraphQL definition is, with its kind; undefined for the root types. */
function customType(d: DefinitionNode): [string, JsonMap] | undefined {
  switch (d.kind) {
    case Kind.ENUM_TYPE_DEFINITION:
      return ['enums', { name: d.name.value, ...description(d.description), values: (d.values ?? []).map((v) => ({ value: v.name.value, ...description(v.description), ...deprecated(v.directives) })) }];
    case Kind.INPUT_OBJECT_TYPE_DEFINITION:
      return ['input_objects', { name: d.name.value, ...description(d.description), fields: inputValues(d.fields) }];
    case Kind.OBJECT_TYPE_DEFINITION:
      return d.name.value === 'Query' || d.name.value === 'Mutation' ? undefined : ['objects', { name: d.name.value, ...description(d.description), fields: fieldValues(d.fields) }];
    case Kind.SCALAR_TYPE_DEFINITION:
      return ['scalars', { name: d.name.value, ...description(d.description) }];
    default:
      return undefined;
  }
}

function parseSdl(sdl: string, file: string): DocumentNode {
  try {
    return parse(sdl);
  } catch (e) {
    if (!(e instanceof GraphQLError)) throw e;
    const at = e.locations?.[0];
    throw new CliError(`${file}${at ? `:${at.line}:${at.column}` : ''}: ${e.message}`);
  }
}

/**
 * The document's `actions` and `custom_types` from `actions.yaml` (`yaml`) and `actions.graphql`
 * (`sdl`): each action's definition joined with its field, each custom type with its entry in
 * `actions.yaml` (types only in the GraphQL file are added after the listed ones).
 */
export function actionsFromFiles(yaml: JsonMap | undefined, sdl: string, files: { yaml: string; graphql: string }): { actions: JsonMap[]; custom_types: JsonMap } {
  const doc = sdl.trim() === '' ? { definitions: [] } : parseSdl(sdl, files.graphql);
  const fields = new Map<string, { type: 'query' | 'mutation'; field: FieldDefinitionNode }>();
  const types = new Map<string, Map<string, JsonMap>>(KINDS.map(({ key }) => [key, new Map()]));
  for (const d of doc.definitions) {
    if ((d.kind === Kind.OBJECT_TYPE_DEFINITION || d.kind === Kind.OBJECT_TYPE_EXTENSION) && (d.name.value === 'Query' || d.name.value === 'Mutation')) {
      for (const field of d.fields ?? []) fields.set(field.name.value, { type: d.name.value === 'Query' ? 'query' : 'mutation', field });
      continue;
    }
    const t = customType(d);
    if (t) types.get(t[0])!.set(String(t[1].name), t[1]);
  }
  const actions = list(yaml?.actions).map((a) => {
    const found = fields.get(String(a.name));
    if (!found) throw new CliError(`${files.yaml}: action "${String(a.name)}" has no field in ${files.graphql} (type Query or type Mutation)`);
    fields.delete(String(a.name));
    const { field, type } = found;
    // The well-known tool writes `kind: ""` for a query action, whose kind means nothing.
    const { kind, ...definition } = (a.definition ?? {}) as JsonMap;
    return { ...a, definition: { ...(kind === '' ? {} : { kind }), ...definition, type, arguments: inputValues(field.arguments), output_type: print(field.type) } };
  });
  const [orphan] = fields.keys();
  if (orphan !== undefined) throw new CliError(`${files.graphql}: action "${orphan}" is not listed in ${files.yaml} (its handler is there)`);
  const listed = (yaml?.custom_types ?? {}) as JsonMap;
  const customTypes = Object.fromEntries(
    KINDS.map(({ key }) => {
      const defined = types.get(key)!;
      const entries = list(listed[key]).map((entry) => {
        const t = defined.get(String(entry.name));
        if (!t) throw new CliError(`${files.yaml}: custom type "${String(entry.name)}" (${key}) is not defined in ${files.graphql}`);
        defined.delete(String(entry.name));
        return { ...t, ...entry };
      });
      return [key, [...entries, ...defined.values()]];
    }),
  );
  return { actions, custom_types: customTypes };
}
