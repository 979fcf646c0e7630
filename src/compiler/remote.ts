/**
 * A remote schema's root field as the remote server must receive it (spec "Remote schema"):
 * the client's selection with every customized field and type name put back to the remote's
 * (response keys kept, so the answer needs no renaming but `__typename`'s values), fragments
 * inlined, the request variables it reads declared with the remote's type names and passed on,
 * and the permission's presets added (static values written in, session values as variables
 * the executor fills in per request).
 */
import {
  astFromValue,
  getNamedType,
  isInputObjectType,
  isListType,
  isNonNullType,
  Kind,
  print,
  visit,
  type ArgumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionNode,
  type SelectionSetNode,
  type TypeNode,
  type ValueNode,
  type VariableDefinitionNode,
} from 'graphql';
import type { RemoteRun, SessionPreset, TypenameTree } from '../protocol/plan.js';
import type { Preset, RemoteField, RemoteTypes } from '../schema/remote-types.js';
import type { RemoteJoin } from '../schema/remote-relationships.js';
import type { CollectedField } from './collect.js';
import { RequestError } from '../errors/request.js';
import { VarRef, type Inputs } from './inputs.js';

const PRESET_VARIABLE = '__service_preset_';

interface Context {
  remote: RemoteTypes;
  schema: GraphQLSchema;
  fragments: Map<string, FragmentDefinitionNode>;
  sessionPresets: SessionPreset[];
  presetDefinitions: VariableDefinitionNode[];
  inputs: Inputs;
  path: string;
}

const name = (value: string) => ({ kind: Kind.NAME, value }) as const;

/** The plan step's run for one remote root field (`root`: which of the remote's roots it is on). */
export function remoteRun(
  remote: RemoteTypes,
  root: 'query' | 'mutation',
  customField: string,
  f: CollectedField,
  request: { schema: GraphQLSchema; op: OperationDefinitionNode; fragments: Map<string, FragmentDefinitionNode>; inputs: Inputs },
  path: string,
): RemoteRun {
  const { schema, op, fragments, inputs } = request;
  const rootType = root === 'query' ? remote.roots.query : remote.roots.mutation!;
  const ctx: Context = { remote, schema, fragments, sessionPresets: [], presetDefinitions: [], inputs, path };
  const tree: TypenameTree = {};
  const field = forwardField(ctx, rootType, customField, f.node, f.selections, tree, f.alias);
  const used = new Set<string>();
  visit(field, { Variable: (v) => void used.add(v.name.value) });
  const declared = (op.variableDefinitions ?? []).filter((d) => used.has(d.variable.name.value)).map((d) => ({ ...d, type: remoteTypeNode(remote, d.type), directives: [] }));
  const document: OperationDefinitionNode = {
    kind: Kind.OPERATION_DEFINITION,
    operation: root === 'query' ? ('query' as OperationDefinitionNode['operation']) : ('mutation' as OperationDefinitionNode['operation']),
    variableDefinitions: [...declared, ...ctx.presetDefinitions],
    selectionSet: { kind: Kind.SELECTION_SET, selections: [field] },
  };
  const names = remote.renamedTypes();
  const hasTypenames = Object.keys(names).length > 0 && (tree.keys !== undefined || tree.fields !== undefined);
  return {
    kind: 'remote',
    remote: remote.name,
    operation: root,
    query: print(document),
    variables: declared.map((d) => d.variable.name.value),
    sessionPresets: ctx.sessionPresets,
    field: f.alias,
    typenames: hasTypenames ? { names, tree: tree.fields?.[f.alias] ?? {} } : null,
  };
}

/** A variable's declared type with the remote's type names. */
function remoteTypeNode(remote: RemoteTypes, t: TypeNode): TypeNode {
  if (t.kind === Kind.NAMED_TYPE) return { ...t, name: name(remote.original(t.name.value)) };
  return { ...t, type: remoteTypeNode(remote, t.type) } as TypeNode;
}

/** One field under `parentType` (a customized name; a root field: the remote's root type name). */
function forwardField(ctx: Context, parentType: string, customField: string, node: FieldNode, selections: readonly SelectionSetNode[], tree: TypenameTree, key: string, given: ReadonlySet<string> = new Set()): FieldNode {
  const remoteField = ctx.remote.field(parentType, customField);
  if (!remoteField) throw new RequestError(`field '${customField}' not found in type: '${parentType}'`, `${ctx.path}.selectionSet.${key}`);
  const def = remoteField.type;
  const args: ArgumentNode[] = (node.arguments ?? []).map((a) => ({ ...a, value: withInputPresets(ctx, a.value, argType(remoteField, a.name.value)) }));
  for (const p of remoteField.presets) if (!given.has(p.name)) args.push({ kind: Kind.ARGUMENT, name: name(p.name), value: presetValue(ctx, p) });
  const sub = (tree.fields ??= {})[key] ?? {};
  const selectionSet = selections.length > 0 ? forwardSelections(ctx, getNamedType(def), selections, sub) : undefined;
  if (sub.keys || sub.fields) tree.fields[key] = sub;
  return {
    kind: Kind.FIELD,
    alias: name(key),
    name: name(remoteField.name),
    arguments: args,
    directives: node.directives ?? [],
    ...(selectionSet ? { selectionSet } : {}),
  };
}

function forwardSelections(ctx: Context, type: GraphQLNamedType, sets: readonly SelectionSetNode[], tree: TypenameTree): SelectionSetNode {
  const selections: SelectionNode[] = [];
  const walk = (set: SelectionSetNode, t: GraphQLNamedType, out: SelectionNode[]) => {
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        const key = sel.alias?.value ?? sel.name.value;
        if (sel.name.value === '__typename') {
          if (!(tree.keys ??= []).includes(key)) tree.keys.push(key);
          out.push({ ...sel, alias: name(key) });
          continue;
        }
        out.push(forwardField(ctx, t.name, sel.name.value, sel, sel.selectionSet ? [sel.selectionSet] : [], tree, key));
      } else {
        const frag = sel.kind === Kind.INLINE_FRAGMENT ? sel : ctx.fragments.get(sel.name.value);
        if (!frag) throw new RequestError(`fragment ${JSON.stringify((sel as { name: { value: string } }).name.value)} is not defined`, ctx.path);
        const cond = frag.typeCondition ? ctx.schema.getType(frag.typeCondition.name.value) : t;
        if (!cond) throw new RequestError(`unknown type ${JSON.stringify(frag.typeCondition!.name.value)}`, ctx.path);
        const inner: SelectionNode[] = [];
        walk(frag.selectionSet, cond, inner);
        out.push({
          kind: Kind.INLINE_FRAGMENT,
          typeCondition: { kind: Kind.NAMED_TYPE, name: name(ctx.remote.original(cond.name)) },
          directives: frag.directives ?? [],
          selectionSet: { kind: Kind.SELECTION_SET, selections: inner },
        });
      }
    }
  };
  for (const s of sets) walk(s, type, selections);
  return { kind: Kind.SELECTION_SET, selections };
}

/** A preset's value: written in when static or not a session variable, else a variable the executor sets from the session. */
function presetValue(ctx: Context, p: Preset): ValueNode {
  if (!p.static && typeof p.value === 'string' && p.value.toLowerCase().startsWith('x-service-')) {
    const variable = `${PRESET_VARIABLE}${ctx.sessionPresets.length}`;
    const named = getNamedType(p.inputType);
    const list = isListType(isNonNullType(p.inputType) ? p.inputType.ofType : p.inputType);
    ctx.sessionPresets.push({ variable, session: p.value.toLowerCase(), scalar: named.name, list });
    ctx.presetDefinitions.push({ kind: Kind.VARIABLE_DEFINITION, variable: { kind: Kind.VARIABLE, name: name(variable) }, type: typeNode(p.inputType.toString()) });
    return { kind: Kind.VARIABLE, name: name(variable) };
  }
  const ast = astFromValue(p.value, p.inputType);
  if (!ast) throw new RequestError(`the preset of ${JSON.stringify(p.name)} is not a valid value`, ctx.path);
  return ast;
}

function typeNode(text: string): TypeNode {
  if (text.endsWith('!')) return { kind: Kind.NON_NULL_TYPE, type: typeNode(text.slice(0, -1)) as Exclude<TypeNode, { kind: Kind.NON_NULL_TYPE }> };
  if (text.startsWith('[')) return { kind: Kind.LIST_TYPE, type: typeNode(text.slice(1, -1)) };
  return { kind: Kind.NAMED_TYPE, name: name(text) };
}

/** Whether a value of this type may hold an input object with preset fields. */
function holdsPresets(ctx: Context, t: GraphQLInputType, seen = new Set<string>()): boolean {
  const named = getNamedType(t);
  if (!isInputObjectType(named) || seen.has(named.name)) return false;
  if (ctx.remote.inputPresets.has(named.name)) return true;
  seen.add(named.name);
  return Object.values(named.getFields()).some((f) => holdsPresets(ctx, f.type, seen));
}

/**
 * An argument value with the presets of its input objects added (rule 2: the role cannot give
 * them). A variable that may hold such an object is written in (its value then shapes the plan).
 */
function withInputPresets(ctx: Context, v: ValueNode, type: GraphQLInputType | undefined): ValueNode {
  if (!type || ctx.remote.inputPresets.size === 0 || !holdsPresets(ctx, type)) return v;
  const t = isNonNullType(type) ? type.ofType : type;
  if (v.kind === Kind.VARIABLE) {
    const ast = astFromValue(ctx.inputs.resolve(new VarRef(v.name.value)), type);
    return ast ? withInputPresets(ctx, ast, type) : v;
  }
  if (isListType(t)) return v.kind === Kind.LIST ? { ...v, values: v.values.map((x) => withInputPresets(ctx, x, t.ofType)) } : withInputPresets(ctx, v, t.ofType);
  if (!isInputObjectType(t) || v.kind !== Kind.OBJECT) return v;
  const fields = t.getFields();
  const given = v.fields.map((f) => ({ ...f, value: withInputPresets(ctx, f.value, fields[f.name.value]?.type) }));
  const presets = (ctx.remote.inputPresets.get(t.name) ?? []).map((p) => ({ kind: Kind.OBJECT_FIELD, name: name(p.name), value: presetValue(ctx, p) }) as const);
  return { ...v, fields: [...given, ...presets] };
}

/** An argument's type in our schema; a preset one's (a remote relationship may set it: rule 6) in the remote's. */
const argType = (f: RemoteField, name: string): GraphQLInputType | undefined => f.args[name] ?? f.presets.find((p) => p.name === name)?.inputType;

const KEY_VARIABLE = '__key_';

/** A relationship's argument value as a literal, `"$column"` as the key variable of that column (its type recorded). */
function joinArgument(v: unknown, type: GraphQLInputType | undefined, lhs: string[], keyTypes: string[], remote: RemoteTypes): ValueNode {
  if (typeof v === 'string' && v.startsWith('$')) {
    const i = lhs.indexOf(v.slice(1));
    if (type && keyTypes[i] === undefined) keyTypes[i] = print(remoteTypeNode(remote, typeNode(type.toString())));
    return { kind: Kind.VARIABLE, name: name(`${KEY_VARIABLE}${i}`) };
  }
  const t = type && isNonNullType(type) ? type.ofType : type;
  if (Array.isArray(v)) return { kind: Kind.LIST, values: v.map((x) => joinArgument(x, t && isListType(t) ? t.ofType : t, lhs, keyTypes, remote)) };
  if (v !== null && typeof v === 'object' && t && isInputObjectType(t)) {
    const fields = t.getFields();
    return { kind: Kind.OBJECT, fields: Object.entries(v).map(([k, x]) => ({ kind: Kind.OBJECT_FIELD, name: name(k), value: joinArgument(x, fields[k]?.type, lhs, keyTypes, remote) })) };
  }
  const ast = type ? astFromValue(v, type) : null;
  if (!ast) throw new RequestError(`a remote relationship's argument value ${JSON.stringify(v)} does not fit its type`, '$');
  return ast;
}

/**
 * A remote relationship's step: its `remote_field` chain down to the client's selection on the
 * last field (whose other arguments the client may give), sent once for all the response's
 * key tuples (`RemoteRun.batch`).
 */
export function remoteJoinRun(join: RemoteJoin, f: CollectedField, request: Parameters<typeof remoteRun>[4], path: string): RemoteRun {
  const { remote } = join;
  const ctx: Context = { remote, schema: request.schema, fragments: request.fragments, sessionPresets: [], presetDefinitions: [], inputs: request.inputs, path };
  const keyTypes: string[] = [];
  const relArgs = (step: RemoteJoin['chain'][number]): ArgumentNode[] =>
    Object.entries(step.arguments).map(([k, v]) => ({ kind: Kind.ARGUMENT, name: name(k), value: joinArgument(v, argType(step.field, k), join.lhs, keyTypes, remote) }));
  const leafStep = join.chain.at(-1)!;
  const tree: TypenameTree = {};
  const leafNode = { ...f.node, arguments: [...(f.node.arguments ?? []), ...relArgs(leafStep)] };
  let field = forwardField(ctx, leafStep.parent, leafStep.name, leafNode, f.selections, tree, leafStep.field.name, new Set(Object.keys(leafStep.arguments)));
  for (const step of join.chain.slice(0, -1).reverse()) {
    const given = new Set(Object.keys(step.arguments));
    const presets = step.field.presets.filter((p) => !given.has(p.name)).map((p) => ({ kind: Kind.ARGUMENT, name: name(p.name), value: presetValue(ctx, p) }) as ArgumentNode);
    field = { kind: Kind.FIELD, name: name(step.field.name), arguments: [...relArgs(step), ...presets], directives: [], selectionSet: { kind: Kind.SELECTION_SET, selections: [field] } };
  }
  const missing = join.lhs.findIndex((_, i) => keyTypes[i] === undefined);
  if (missing >= 0) throw new RequestError(`remote relationship ${JSON.stringify(join.name)}: column ${JSON.stringify(join.lhs[missing])} is not used by an argument`, path);
  const used = new Set<string>();
  visit(field, { Variable: (v) => void used.add(v.name.value) });
  const declared = (request.op.variableDefinitions ?? []).filter((d) => used.has(d.variable.name.value)).map((d) => ({ ...d, type: remoteTypeNode(remote, d.type), directives: [] }));
  const text = print({ ...field, alias: undefined });
  const pieces = text.split(new RegExp(`\\$${KEY_VARIABLE}(\\d+)\\b`));
  const names = remote.renamedTypes();
  const leafTree = tree.fields?.[leafStep.field.name];
  return {
    kind: 'remote',
    remote: remote.name,
    operation: 'query',
    query: '',
    variables: declared.map((d) => d.variable.name.value),
    sessionPresets: ctx.sessionPresets,
    field: f.alias,
    typenames: Object.keys(names).length > 0 && leafTree ? { names, tree: leafTree } : null,
    batch: {
      declarations: [...declared, ...ctx.presetDefinitions].map((d) => print(d)).join(', '),
      parts: pieces.filter((_, i) => i % 2 === 0),
      slots: pieces.filter((_, i) => i % 2 === 1).map(Number),
      keyTypes,
      path: join.chain.slice(1).map((c) => c.field.name),
    },
  };
}
