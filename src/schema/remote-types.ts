/**
 * A remote schema's part of a GraphQL schema (spec "Remote schema"): the remote's types under
 * their customized names (metadata/remote-naming.ts), its query and mutation root fields, and
 * the way back from every customized name to the remote's own, which the compiler uses to
 * forward a selection as the remote knows it (compiler/remote.ts). Built from the
 * introspection (every role, without remote schema permissions) or from a role's permission
 * document (a subset, its `@preset` arguments left out and kept here), once per snapshot.
 */
import {
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLInterfaceType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLUnionType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isSpecifiedScalarType,
  isUnionType,
  type GraphQLField,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLFieldConfigMap,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type GraphQLType,
} from 'graphql';
import type { RemoteNaming } from '../metadata/remote-naming.js';

/** An argument or input field value the engine sets (spec "Remote schema" permission rules 1-3). */
export interface Preset {
  name: string;
  /** The value as JSON; a string naming a session variable is read per request unless `static`. */
  value: unknown;
  static: boolean;
  /** The remote's type of the argument or input field (of the remote's own schema). */
  inputType: GraphQLInputType;
}

/** What a customized field is on the remote. */
export interface RemoteField {
  name: string;
  /** Arguments the role may not give: the engine adds them. */
  presets: Preset[];
  /** Its type in our schema (customized names). */
  type: GraphQLOutputType;
  /** Its arguments' types in our schema. */
  args: Record<string, GraphQLInputType>;
}

export type PresetsOf = (parentType: string, field: string) => Preset[];
export type InputPresetsOf = (inputType: string) => Preset[];

export class RemoteTypes {
  private readonly types = new Map<string, GraphQLNamedType>();
  /** Customized type name -> the remote's name. */
  private readonly originals = new Map<string, string>();
  /** `customizedParent.customizedField` -> the remote's field. */
  private readonly fields = new Map<string, RemoteField>();
  /** Customized input type name -> the presets of its fields. */
  readonly inputPresets = new Map<string, Preset[]>();
  readonly query: GraphQLFieldConfigMap<unknown, unknown>;
  readonly mutation: GraphQLFieldConfigMap<unknown, unknown>;
  /** The remote's root type names, as `field()` knows the root fields under them. */
  readonly roots: { query: string; mutation: string | null };

  constructor(
    readonly name: string,
    private readonly source: GraphQLSchema,
    readonly naming: RemoteNaming,
    private readonly presets: PresetsOf = () => [],
    private readonly inputPresetsOf: InputPresetsOf = () => [],
  ) {
    const q = source.getQueryType();
    const m = source.getMutationType();
    this.roots = { query: q?.name ?? 'Query', mutation: m?.name ?? null };
    this.query = q ? this.fieldConfigs(q, this.roots.query) : {};
    this.mutation = m ? this.fieldConfigs(m, m.name) : {};
  }

  /**
   * Every type of the remote but its roots: an object type reached only as an implementation
   * of an interface (or a member of a union) must be in the schema too.
   */
  allTypes(): GraphQLNamedType[] {
    const roots = new Set([this.roots.query, this.roots.mutation, this.source.getSubscriptionType()?.name]);
    return Object.values(this.source.getTypeMap())
      .filter((t) => !roots.has(t.name) && !t.name.startsWith('__') && !isSpecifiedScalarType(t))
      .map((t) => this.named(t));
  }

  /** The remote's name of a customized type (built-in scalars keep theirs). */
  original(typeName: string): string {
    return this.originals.get(typeName) ?? typeName;
  }

  /** Remote type name -> customized name, for the types whose name differs (`__typename` in answers). */
  renamedTypes(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [custom, original] of this.originals) if (custom !== original) out[original] = custom;
    return out;
  }

  /** A field by the remote's own name under a customized parent type (a remote relationship's `remote_field`). */
  fieldByOriginal(parentType: string, original: string): { name: string; field: RemoteField } | undefined {
    // A type's fields are made when first asked for.
    const t = this.types.get(this.original(parentType));
    if (t && (isObjectType(t) || isInterfaceType(t))) t.getFields();
    const prefix = `${parentType}.`;
    for (const [key, field] of this.fields) if (key.startsWith(prefix) && field.name === original) return { name: key.slice(prefix.length), field };
    return undefined;
  }

  /** The remote field behind a customized field of a customized type (a root field: under `roots`' customized names, i.e. the remote's). */
  field(parentType: string, field: string): RemoteField | undefined {
    return this.fields.get(`${parentType}.${field}`);
  }

  private fieldConfigs(t: GraphQLObjectType | GraphQLInterfaceType, customParent: string): GraphQLFieldConfigMap<unknown, unknown> {
    const out: GraphQLFieldConfigMap<unknown, unknown> = {};
    for (const f of Object.values(t.getFields()) as GraphQLField<unknown, unknown>[]) {
      const name = this.naming.fieldName(t.name, f.name);
      const presets = this.presets(t.name, f.name);
      const preset = new Set(presets.map((p) => p.name));
      const args: GraphQLFieldConfigArgumentMap = {};
      const argTypes: Record<string, GraphQLInputType> = {};
      for (const a of f.args) {
        if (preset.has(a.name)) continue;
        argTypes[a.name] = this.input(a.type);
        args[a.name] = { type: argTypes[a.name]!, defaultValue: a.defaultValue, description: a.description, deprecationReason: a.deprecationReason };
      }
      const type = this.output(f.type);
      out[name] = { type, args, description: f.description, deprecationReason: f.deprecationReason };
      this.fields.set(`${customParent}.${name}`, { name: f.name, presets, type, args: argTypes });
    }
    return out;
  }

  private output(t: GraphQLType): GraphQLOutputType {
    if (isNonNullType(t)) return new GraphQLNonNull(this.output(t.ofType));
    if (isListType(t)) return new GraphQLList(this.output(t.ofType));
    return this.named(t) as GraphQLOutputType;
  }

  private input(t: GraphQLType): GraphQLInputType {
    if (isNonNullType(t)) return new GraphQLNonNull(this.input(t.ofType));
    if (isListType(t)) return new GraphQLList(this.input(t.ofType));
    return this.named(t) as GraphQLInputType;
  }

  private named(t: GraphQLNamedType): GraphQLNamedType {
    if (isSpecifiedScalarType(t) || t.name.startsWith('__')) return t;
    const made = this.types.get(t.name);
    if (made) return made;
    const name = this.naming.typeName(t.name);
    this.originals.set(name, t.name);
    const common = { name, description: t.description };
    let out: GraphQLNamedType;
    if (isObjectType(t)) {
      out = new GraphQLObjectType({ ...common, interfaces: () => t.getInterfaces().map((i) => this.named(i) as GraphQLInterfaceType), fields: () => this.fieldConfigs(t, name) });
    } else if (isInterfaceType(t)) {
      out = new GraphQLInterfaceType({ ...common, interfaces: () => t.getInterfaces().map((i) => this.named(i) as GraphQLInterfaceType), fields: () => this.fieldConfigs(t, name) });
    } else if (isUnionType(t)) {
      out = new GraphQLUnionType({ ...common, types: () => t.getTypes().map((x) => this.named(x) as GraphQLObjectType) });
    } else if (isEnumType(t)) {
      out = new GraphQLEnumType({ ...common, values: Object.fromEntries(t.getValues().map((v) => [v.name, { value: v.name, description: v.description, deprecationReason: v.deprecationReason }])) });
    } else if (isInputObjectType(t)) {
      const presets = this.inputPresetsOf(t.name);
      if (presets.length) this.inputPresets.set(name, presets);
      const preset = new Set(presets.map((p) => p.name));
      out = new GraphQLInputObjectType({
        ...common,
        fields: () =>
          Object.fromEntries(
            Object.values(t.getFields())
              .filter((f) => !preset.has(f.name))
              .map((f) => [f.name, { type: this.input(f.type), defaultValue: f.defaultValue, description: f.description }]),
          ),
      });
    } else if (isScalarType(t)) {
      out = new GraphQLScalarType({ ...common, specifiedByURL: t.specifiedByURL });
    } else {
      throw new Error(`unexpected remote type ${String(t)}`);
    }
    this.types.set(t.name, out);
    return out;
  }
}
