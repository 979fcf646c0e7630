/**
 * A role's GraphQL schema that does not visit its types until asked. graphql-js's own
 * constructor walks every type reachable from the roots, forcing every field thunk: at 5,000
 * tables that is 150,000 types, seconds per role and most of its memory, while a query touches
 * a handful. Here the roots are given and types are found by name only when needed:
 * - first among the types already reached through fields that something has forced
 *   (validation forces the fields along a document's selections and arguments);
 * - then after forcing the fields of the roots made so far (every table's root field types and
 *   argument types; the mutation and subscription roots are made when an operation needs them,
 *   and their fields when first read: lazy-fields.ts);
 * - then by the full walk (a document naming, say, a comparison type no field led to yet; and
 *   introspection, which lists every type).
 * The types are built to be valid (schema/build.ts), so graphql-js's schema validation is skipped.
 */
import {
  GraphQLSchema,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isUnionType,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLInputObjectType,
  type GraphQLInterfaceType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLType,
} from 'graphql';
import { LazyFieldsType } from './lazy-fields.js';

interface Roots {
  query: LazyFieldsType;
  /** Made on first use: whether there is one at all depends on its fields. */
  mutation: () => LazyFieldsType | undefined;
  subscription: () => LazyFieldsType | undefined;
  /** Types in the schema whether or not a field leads to them (enum tables, remote schemas' types). */
  types: GraphQLNamedType[];
}

type Implementations = ReturnType<GraphQLSchema['getImplementations']>;
const NO_IMPLEMENTATIONS: Implementations = { objects: [], interfaces: [] };

const named = (t: GraphQLType): GraphQLNamedType => (isListType(t) || isNonNullType(t) ? named(t.ofType) : t);

/** Whether a type's fields are defined already (graphql-js keeps the thunk until the first `getFields`). */
const fieldsForced = (t: GraphQLNamedType) => typeof (t as unknown as { _fields: unknown })._fields !== 'function';

/** The fields a walk follows: all of them when it forces, else those made already. */
function fieldsToFollow(t: GraphQLObjectType | GraphQLInterfaceType | GraphQLInputObjectType, force: boolean): readonly (GraphQLField<unknown, unknown> | GraphQLInputField)[] {
  if (t instanceof LazyFieldsType) {
    if (force) t.buildAll();
    return t.builtFields();
  }
  return force || fieldsForced(t) ? Object.values(t.getFields()) : [];
}

export class LazySchema extends GraphQLSchema {
  private readonly found = new Map<string, GraphQLNamedType>();
  private complete: Record<string, GraphQLNamedType> | null = null;
  private mutation: { type: LazyFieldsType | undefined } | null = null;
  private subscription: { type: LazyFieldsType | undefined } | null = null;

  constructor(private readonly roots: Roots) {
    // The base holds the introspection types and the scalars they use.
    super({ assumeValid: true });
  }

  override getQueryType() {
    return this.roots.query;
  }

  override getMutationType() {
    return (this.mutation ??= { type: this.roots.mutation() }).type;
  }

  override getSubscriptionType() {
    return (this.subscription ??= { type: this.roots.subscription() }).type;
  }

  override getRootType(operation: 'query' | 'mutation' | 'subscription') {
    return operation === 'query' ? this.getQueryType() : operation === 'mutation' ? this.getMutationType() : this.getSubscriptionType();
  }

  /** Interfaces are the remote schemas' only: their implementations are among `roots.types`. */
  private implementations: Map<string, Implementations> | null = null;

  override getImplementations(iface: GraphQLInterfaceType): Implementations {
    if (!this.implementations) {
      const map = new Map<string, { objects: GraphQLObjectType[]; interfaces: GraphQLInterfaceType[] }>();
      for (const t of this.roots.types) {
        if (!isObjectType(t) && !isInterfaceType(t)) continue;
        for (const i of t.getInterfaces()) {
          const entry = map.get(i.name) ?? map.set(i.name, { objects: [], interfaces: [] }).get(i.name)!;
          if (isObjectType(t)) entry.objects.push(t);
          else entry.interfaces.push(t);
        }
      }
      this.implementations = map;
    }
    return this.implementations.get(iface.name) ?? NO_IMPLEMENTATIONS;
  }

  override getType(name: string): GraphQLNamedType | undefined {
    const base = super.getType(name);
    if (base) return base;
    if (this.complete) return this.complete[name];
    if (!this.found.has(name)) this.walk(false);
    if (!this.found.has(name)) {
      for (const root of this.rootTypes(false)) root.buildAll();
      this.walk(false);
    }
    return this.found.get(name) ?? this.getTypeMap()[name];
  }

  override getTypeMap() {
    if (!this.complete) {
      this.walk(true);
      this.complete = Object.assign(Object.create(null) as Record<string, GraphQLNamedType>, super.getTypeMap(), Object.fromEntries(this.found));
    }
    return this.complete;
  }

  /** The roots, all of them or those made so far (a query does not make the mutation root). */
  private rootTypes(all: boolean): LazyFieldsType[] {
    const made = (r: { type: LazyFieldsType | undefined } | null, make: () => LazyFieldsType | undefined) => (all ? make() : r?.type);
    return [this.getQueryType(), made(this.mutation, () => this.getMutationType()), made(this.subscription, () => this.getSubscriptionType())].filter((r): r is LazyFieldsType => r !== undefined);
  }

  /** Every type reachable from the roots, through forced fields only unless `force`. */
  private walk(force: boolean): void {
    const seen = new Set<GraphQLNamedType>();
    const stack: GraphQLNamedType[] = [...this.rootTypes(force), ...this.roots.types];
    while (stack.length > 0) {
      const t = stack.pop()!;
      if (seen.has(t)) continue;
      seen.add(t);
      this.found.set(t.name, t);
      if (isObjectType(t) || isInterfaceType(t) || isInputObjectType(t)) {
        for (const f of fieldsToFollow(t, force)) {
          stack.push(named(f.type));
          if ('args' in f) for (const a of f.args) stack.push(named(a.type));
        }
      } else if (isUnionType(t)) {
        stack.push(...t.getTypes());
      }
    }
  }
}
