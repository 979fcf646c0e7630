/**
 * A remote schema permission's document (spec "Remote schema" permission rules 1-4) checked
 * against the remote's schema: every type, field, argument, input field, enum value and union
 * member it names must be the remote's, with the remote's types; it may leave things out
 * (a role's schema may omit the mutation root), and `@preset(value, static)` on an argument
 * or input field sets it (its value checked against the type). Used by the command (a 400 with
 * the reason) and by resolution (a permission the remote no longer fits is inconsistent).
 */
import {
  buildASTSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isUnionType,
  Kind,
  parse,
  valueFromAST,
  type ConstDirectiveNode,
  type DocumentNode,
  type GraphQLArgument,
  type GraphQLInputField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';

export interface PermissionPreset {
  name: string;
  value: unknown;
  static: boolean;
}

export interface CheckedPermission {
  /** The role's view of the remote, in the remote's own names. */
  schema: GraphQLSchema;
  /** Presets by `Type.field` (arguments) and by input type name (input fields). */
  argumentPresets: Map<string, PermissionPreset[]>;
  inputPresets: Map<string, PermissionPreset[]>;
}

const PRESET_DIRECTIVE = 'directive @preset(value: String, static: Boolean) on ARGUMENT_DEFINITION | INPUT_FIELD_DEFINITION';

export class PermissionSchemaError extends Error {}

function parseDocument(sdl: string): DocumentNode {
  try {
    return parse(sdl, { noLocation: true });
  } catch (e) {
    throw new PermissionSchemaError(`the schema document does not parse: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Checks `sdl` against `remote`; throws a `PermissionSchemaError` naming what does not fit. */
export function checkPermissionSchema(sdl: string, remote: GraphQLSchema): CheckedPermission {
  const doc = parseDocument(sdl);
  const preset = parse(PRESET_DIRECTIVE).definitions;
  let schema: GraphQLSchema;
  try {
    // @preset's value is any literal: its checks are ours (below), not graphql-js's.
    schema = buildASTSchema({ ...doc, definitions: [...preset, ...doc.definitions.filter((d) => !(d.kind === Kind.DIRECTIVE_DEFINITION && d.name.value === 'preset'))] }, { assumeValidSDL: true });
  } catch (e) {
    throw new PermissionSchemaError(e instanceof Error ? e.message : String(e));
  }
  const fail = (message: string): never => {
    throw new PermissionSchemaError(message);
  };
  for (const [kind, mine, theirs] of [
    ['query', schema.getQueryType(), remote.getQueryType()],
    ['mutation', schema.getMutationType(), remote.getMutationType()],
    ['subscription', schema.getSubscriptionType(), remote.getSubscriptionType()],
  ] as const) {
    if (mine && mine.name !== theirs?.name) fail(`the ${kind} root type ${JSON.stringify(mine.name)} is not the remote schema's ${kind} root${theirs ? ` (${JSON.stringify(theirs.name)})` : ''}`);
  }
  if (!schema.getQueryType()) fail('the schema document has no query root type');
  const argumentPresets = new Map<string, PermissionPreset[]>();
  const inputPresets = new Map<string, PermissionPreset[]>();
  const sameType = (what: string, mine: { toString(): string }, theirs: { toString(): string }) => {
    if (mine.toString() !== theirs.toString()) fail(`${what} has type ${mine.toString()} but the remote schema's is ${theirs.toString()}`);
  };
  const presetOf = (what: string, v: GraphQLArgument | GraphQLInputField): PermissionPreset | null => {
    const d = v.astNode?.directives?.find((x: ConstDirectiveNode) => x.name.value === 'preset');
    if (!d) return null;
    const valueArg = d.arguments?.find((a) => a.name.value === 'value');
    if (!valueArg) return fail(`the @preset of ${what} needs a value`);
    const staticArg = d.arguments?.find((a) => a.name.value === 'static');
    if (staticArg && staticArg.value.kind !== Kind.BOOLEAN) fail(`the @preset of ${what}: static must be a boolean`);
    const isStatic = staticArg?.value.kind === Kind.BOOLEAN && staticArg.value.value;
    const node = valueArg.value;
    // A session variable: its value comes with each request (rule 3), and must then fit a scalar.
    if (!isStatic && node.kind === Kind.STRING && node.value.toLowerCase().startsWith('x-service-')) {
      if (!isScalarType(getNamedType(v.type)) && !isEnumType(getNamedType(v.type))) fail(`the @preset of ${what} is a session variable but its type ${v.type.toString()} is not a scalar`);
      return { name: v.name, value: node.value, static: false };
    }
    const value = valueFromAST(node, v.type as GraphQLInputType);
    if (value === undefined) fail(`the @preset value of ${what} is not a valid ${v.type.toString()}`);
    return { name: v.name, value, static: true };
  };
  for (const t of Object.values(schema.getTypeMap()) as GraphQLNamedType[]) {
    if (t.name.startsWith('__') || (isScalarType(t) && ['Int', 'Float', 'String', 'Boolean', 'ID'].includes(t.name))) continue;
    const r = remote.getType(t.name);
    if (!r) return fail(`type ${JSON.stringify(t.name)} does not exist in the remote schema`);
    const kindOf = (x: GraphQLNamedType) => (isObjectType(x) ? 'an object' : isInterfaceType(x) ? 'an interface' : isUnionType(x) ? 'a union' : isEnumType(x) ? 'an enum' : isInputObjectType(x) ? 'an input object' : 'a scalar');
    if (kindOf(t) !== kindOf(r)) fail(`type ${JSON.stringify(t.name)} is ${kindOf(t)} type but in the remote schema it is ${kindOf(r)} type`);
    if ((isObjectType(t) || isInterfaceType(t)) && (isObjectType(r) || isInterfaceType(r))) {
      const theirs = r.getFields();
      for (const f of Object.values(t.getFields())) {
        const rf = theirs[f.name];
        if (!rf) fail(`field ${JSON.stringify(f.name)} does not exist in type ${JSON.stringify(t.name)} of the remote schema`);
        sameType(`field ${t.name}.${f.name}`, f.type, rf!.type);
        const presets: PermissionPreset[] = [];
        for (const a of f.args) {
          const ra = rf!.args.find((x) => x.name === a.name);
          if (!ra) fail(`argument ${JSON.stringify(a.name)} does not exist in field ${t.name}.${f.name} of the remote schema`);
          sameType(`argument ${a.name} of ${t.name}.${f.name}`, a.type, ra!.type);
          const p = presetOf(`argument ${a.name} of ${t.name}.${f.name}`, a);
          if (p) presets.push(p);
        }
        for (const ra of rf!.args) {
          if (isNonNullType(ra.type) && ra.defaultValue === undefined && !f.args.some((a) => a.name === ra.name)) fail(`the required argument ${JSON.stringify(ra.name)} of ${t.name}.${f.name} is missing`);
        }
        if (presets.length) argumentPresets.set(`${t.name}.${f.name}`, presets);
      }
      for (const i of t.getInterfaces()) if (!r.getInterfaces().some((x) => x.name === i.name)) fail(`type ${JSON.stringify(t.name)} does not implement ${JSON.stringify(i.name)} in the remote schema`);
    } else if (isInputObjectType(t) && isInputObjectType(r)) {
      const theirs = r.getFields();
      const presets: PermissionPreset[] = [];
      for (const f of Object.values(t.getFields())) {
        const rf = theirs[f.name];
        if (!rf) fail(`input field ${JSON.stringify(f.name)} does not exist in type ${JSON.stringify(t.name)} of the remote schema`);
        sameType(`input field ${t.name}.${f.name}`, f.type, rf!.type);
        const p = presetOf(`input field ${t.name}.${f.name}`, f);
        if (p) presets.push(p);
      }
      if (presets.length) inputPresets.set(t.name, presets);
    } else if (isEnumType(t) && isEnumType(r)) {
      for (const v of t.getValues()) if (!r.getValue(v.name)) fail(`enum value ${JSON.stringify(v.name)} does not exist in enum ${JSON.stringify(t.name)} of the remote schema`);
    } else if (isUnionType(t) && isUnionType(r)) {
      for (const m of t.getTypes()) if (!r.getTypes().some((x) => x.name === m.name)) fail(`type ${JSON.stringify(m.name)} is not a member of union ${JSON.stringify(t.name)} in the remote schema`);
    }
  }
  return { schema, argumentPresets, inputPresets };
}
