/**
 * A role's GraphQL schema from its RoleModel: object, aggregate, bool_exp and order_by
 * types per table, and the query and subscription roots; the types that do not depend on
 * the role's permissions come from the snapshot's SharedTypes. The FieldInfo table beside
 * it tells the compiler what each field means.
 */
import {
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLString,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLFieldConfigMap,
  type GraphQLInputFieldConfigMap,
  type GraphQLInputObjectType,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLOutputType,
} from 'graphql';
import { aggregateFieldsType, aggregateOrderByType, selectColumnEnum, streamCursorColumns, streamCursorInput } from './column-set-types.js';
import { functionArgsTypeArgs } from './functions.js';
import { inputObjectType, objectType } from './graphql-types.js';
import { orderableComputedField, type FunctionInfo, type RoleModel, type TableInfo } from './model.js';
import { MutationTypes } from './mutation-types.js';
import { NAMESPACE_TYPE_SUFFIX, tableRootField, type Namespacing, type RootFieldKind } from './naming.js';
import { scalarOf } from './scalars.js';
import { sortable } from '../catalog/type-traits.js';
import type { SharedTypes } from './shared-types.js';
import { LazySchema } from './lazy-schema.js';
import { fieldGroup, LazyFieldsType, madeFields, type FieldGroup } from './lazy-fields.js';
import type { RemoteTypes } from './remote-types.js';
import type { TableJoins } from './remote-relationships.js';
import { ActionTypes, type ActionsView } from './actions.js';
import type { ActionMetadata } from '../metadata/actions.js';
import { fieldKey, type FieldInfo } from './types.js';

export interface RoleSchema {
  role: string;
  schema: LazySchema;
  fields: Map<string, FieldInfo>;
  model: RoleModel;
}

type FieldConfig = GraphQLFieldConfig<unknown, unknown>;

const nonNullList = (t: GraphQLOutputType) => new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(t)));
const inputList = (t: GraphQLInputType) => new GraphQLList(new GraphQLNonNull(t));

/** The types of one role's schema that depend on its permissions; the rest come from `shared`. */
export class RoleSchemaBuilder {
  readonly fields = new Map<string, FieldInfo>();
  private readonly objects = new Map<string, GraphQLObjectType>();
  private readonly boolExps = new Map<string, GraphQLInputObjectType>();
  private readonly orderBys = new Map<string, GraphQLInputObjectType>();
  private readonly aggregates = new Map<string, GraphQLObjectType>();

  constructor(
    readonly model: RoleModel,
    readonly shared: SharedTypes,
    private readonly joins: (t: TableInfo) => TableJoins = () => ({ remote: [], source: [] }),
  ) {}

  target(key: string): TableInfo {
    return this.model.tables.get(key)!;
  }

  boolExp(t: TableInfo): GraphQLInputObjectType {
    let b = this.boolExps.get(t.key);
    if (b) return b;
    b = inputObjectType({
      ...t.texts.boolExp,
      fields: () => {
        const f: GraphQLInputFieldConfigMap = {
          _and: { type: inputList(b!) },
          _not: { type: b! },
          _or: { type: inputList(b!) },
        };
        for (const c of t.columns) f[c.fieldName] = { type: this.shared.columnComparison(t, c.column), description: c.description ?? undefined };
        for (const r of t.relationships) f[r.fieldName] = { type: this.boolExp(this.target(r.targetKey)) };
        for (const cf of t.computedFields) {
          // Computed fields that need arguments cannot be filtered on.
          if (cf.extraArgs.length > 0) continue;
          if (cf.returnsTable) {
            const target = this.model.tables.get(cf.returnsTable);
            if (target) f[cf.fieldName] = { type: this.boolExp(target) };
          } else {
            f[cf.fieldName] = { type: this.shared.comparison(scalarOf(cf.fn.returnType), cf.fn.returnType.traits.family) };
          }
        }
        return sortedFields(f);
      },
    });
    this.boolExps.set(t.key, b);
    return b;
  }

  orderBy(t: TableInfo): GraphQLInputObjectType {
    let o = this.orderBys.get(t.key);
    if (o) return o;
    o = inputObjectType({
      ...t.texts.orderBy,
      fields: () => {
        const orderBy = this.shared.orderByEnum(t.naming);
        const f: GraphQLInputFieldConfigMap = {};
        for (const c of t.columns) if (sortable(c.column.type.traits)) f[c.fieldName] = { type: orderBy };
        for (const cf of t.computedFields) if (orderableComputedField(cf)) f[cf.fieldName] = { type: orderBy };
        for (const r of t.relationships) {
          const target = this.target(r.targetKey);
          if (r.kind === 'object') f[r.fieldName] = { type: this.orderBy(target) };
          else if (target.permission.allowAggregations) f[`${r.fieldName}_aggregate`] = { type: aggregateOrderByType(this.shared, target) };
        }
        return sortedFields(f);
      },
    });
    this.orderBys.set(t.key, o);
    return o;
  }

  /** Arguments of a list of rows: distinct_on, limit, offset, order_by, where. */
  rowArgs(t: TableInfo): GraphQLFieldConfigArgumentMap {
    const args: GraphQLFieldConfigArgumentMap = {};
    const n = (base: string) => t.naming.fieldName(base);
    if (t.columns.length > 0 && t.capabilities.distinctOn) args[n('distinct_on')] = { type: inputList(selectColumnEnum(this.shared, t)), description: 'distinct select on columns' };
    args.limit = { type: GraphQLInt, description: 'limit the number of rows returned' };
    args.offset = { type: GraphQLInt, description: 'skip the first n rows. Use only with order_by' };
    args[n('order_by')] = { type: inputList(this.orderBy(t)), description: 'sort the rows by one or more columns' };
    args.where = { type: this.boolExp(t), description: 'filter the rows returned' };
    return args;
  }

  aggregate(t: TableInfo): GraphQLObjectType {
    let a = this.aggregates.get(t.key);
    if (a) return a;
    a = objectType({
      ...t.texts.aggregate,
      fields: () => ({ aggregate: { type: aggregateFieldsType(this.shared, t) }, nodes: { type: nonNullList(this.object(t)) } }),
    });
    this.aggregates.set(t.key, a);
    return a;
  }

  object(t: TableInfo): GraphQLObjectType {
    let o = this.objects.get(t.key);
    if (o) return o;
    const name = t.texts.object.name;
    o = objectType({
      ...t.texts.object,
      fields: () => {
        const f: GraphQLFieldConfigMap<unknown, unknown> = {};
        for (const c of t.columns) {
          const conditional = t.permission.columns.get(c.column.name) !== null;
          const base = this.shared.columnType(t, c.column) as GraphQLOutputType;
          const type = c.column.nullable || conditional ? base : new GraphQLNonNull(base);
          const args: GraphQLFieldConfigArgumentMap = {};
          if (c.column.type.traits.family === 'json' || c.column.type.traits.family === 'binary-json') args.path = { type: GraphQLString, description: 'JSON select path' };
          f[c.fieldName] = { type, args, description: c.description ?? undefined };
          this.fields.set(fieldKey(name, c.fieldName), { kind: 'column', table: t, column: c });
        }
        for (const r of t.relationships) {
          const target = this.target(r.targetKey);
          if (r.kind === 'object') {
            const required = r.join.mapping.every(([local]) => t.catalog.columns.find((c) => c.name === local)?.nullable === false) && isForeignKeyOf(t, r.join.mapping);
            f[r.fieldName] = { type: required ? new GraphQLNonNull(this.object(target)) : this.object(target), description: r.description ?? 'An object relationship' };
          } else {
            f[r.fieldName] = { type: nonNullList(this.object(target)), args: this.rowArgs(target), description: r.description ?? 'An array relationship' };
            if (target.permission.allowAggregations) {
              f[`${r.fieldName}_aggregate`] = { type: new GraphQLNonNull(this.aggregate(target)), args: this.rowArgs(target), description: r.description ?? 'An aggregate relationship' };
              this.fields.set(fieldKey(name, `${r.fieldName}_aggregate`), { kind: 'relationship_aggregate', table: t, relationship: r });
            }
          }
          this.fields.set(fieldKey(name, r.fieldName), { kind: 'relationship', table: t, relationship: r });
        }
        for (const cf of t.computedFields) {
          const args: GraphQLFieldConfigArgumentMap = {};
          if (cf.extraArgs.length > 0) args.args = { type: new GraphQLNonNull(this.shared.functionArgs(t.naming, cf.fn.name, functionArgsTypeArgs(t.source, cf.fn, cf.extraArgs))) };
          if (cf.returnsTable) {
            const target = this.model.tables.get(cf.returnsTable);
            if (!target) continue;
            f[cf.fieldName] = { type: nonNullList(this.object(target)), args: { ...args, ...this.rowArgs(target) }, description: cf.description ?? undefined };
          } else {
            f[cf.fieldName] = { type: scalarOf(cf.fn.returnType), args, description: cf.description ?? `A computed field, executes function ${JSON.stringify(cf.fn.name)}` };
          }
          this.fields.set(fieldKey(name, cf.fieldName), { kind: 'computed', table: t, computed: cf });
        }
        const joins = this.joins(t);
        for (const j of joins.source) {
          const target = this.model.tables.get(j.targetKey);
          if (!target) continue;
          f[j.name] = j.many ? { type: nonNullList(this.object(target)), args: this.rowArgs(target) } : { type: this.object(target) };
          this.fields.set(fieldKey(name, j.name), { kind: 'source_relationship', table: t, join: j, target });
        }
        for (const j of joins.remote) {
          const set = j.chain.at(-1)!.arguments;
          const args = Object.fromEntries(Object.entries(j.chain.at(-1)!.field.args).filter(([k]) => !(k in set)).map(([k, type]) => [k, { type }]));
          f[j.name] = { type: j.type, args, description: `A remote relationship to remote schema ${JSON.stringify(j.remote.name)}` };
          this.fields.set(fieldKey(name, j.name), { kind: 'remote_relationship', table: t, join: j });
        }
        // Introspection lists fields by name, as the well-known engine does.
        return sortedFields(f);
      },
    });
    this.objects.set(t.key, o);
    return o;
  }

  /** Root fields of a tracked function returning rows of a table the role may select (named now, made when first read). */
  functionRootFields(f: FunctionInfo, rootType: string, allowed: Set<string> | null): FieldGroup {
    const makers: [string, () => FieldConfig][] = [];
    const t = f.table;
    const args = (): GraphQLFieldConfigArgumentMap => ({
      ...(f.inputArgs.length ? { args: { type: new GraphQLNonNull(this.shared.functionArgs(t.naming, f.fn.name, f.inputArgs)), description: `input parameters for function ${JSON.stringify(f.rootName)}` } } : {}),
      ...this.rowArgs(t),
    });
    const description = f.description ?? `execute function ${JSON.stringify(f.fn.name)} which returns ${JSON.stringify(t.catalog.name)}`;
    if (!allowed || allowed.has('select')) {
      makers.push([f.rootName, () => ({ type: nonNullList(this.object(t)), args: args(), description })]);
      this.fields.set(fieldKey(rootType, f.rootName), { kind: 'root_function', table: t, fn: f });
    }
    if (t.permission.allowAggregations && (!allowed || allowed.has('select_aggregate'))) {
      makers.push([f.aggregateName, () => ({ type: new GraphQLNonNull(this.aggregate(t)), args: args(), description: `execute function ${JSON.stringify(f.fn.name)} and query aggregates on result of table type ${JSON.stringify(t.catalog.name)}` })]);
      this.fields.set(fieldKey(rootType, f.aggregateName), { kind: 'root_function_aggregate', table: t, fn: f });
    }
    return fieldGroup(makers);
  }

  /**
   * Root fields of one table, for the query (or subscription) root; `streams`: the subscription
   * root's `_stream` field too. Named (and their FieldInfo set) now, made when first read.
   */
  rootFields(t: TableInfo, rootType: string, allowed: Set<string> | null, streams: boolean): FieldGroup {
    const makers: [string, () => FieldConfig][] = [];
    const add = (kind: RootFieldKind, make: () => FieldConfig, info: FieldInfo) => {
      if (allowed && !allowed.has(kind)) return;
      const { name, comment } = tableRootField(t.naming, t.meta, kind);
      makers.push([name, comment ? () => ({ ...make(), description: comment }) : make]);
      this.fields.set(fieldKey(rootType, name), info);
    };
    const descriptions = t.texts.roots;
    add('select', () => ({ type: nonNullList(this.object(t)), args: this.rowArgs(t), description: descriptions.select }), { kind: 'root_select', table: t });
    if (t.permission.allowAggregations) {
      add('select_aggregate', () => ({ type: new GraphQLNonNull(this.aggregate(t)), args: this.rowArgs(t), description: descriptions.select_aggregate }), {
        kind: 'root_select_aggregate',
        table: t,
      });
    }
    const pk = t.catalog.primaryKey;
    const pkColumns = pk ? pk.columns.map((c) => t.columns.find((x) => x.column.name === c)) : [];
    if (pk && pkColumns.every((c) => c !== undefined)) {
      add(
        'select_by_pk',
        () => ({
          type: this.object(t),
          args: Object.fromEntries(pkColumns.map((c) => [c!.fieldName, { type: new GraphQLNonNull(this.shared.columnType(t, c!.column)) }])),
          description: descriptions.select_by_pk,
        }),
        { kind: 'root_select_by_pk', table: t },
      );
    }
    // A table without a column that can order a cursor cannot be streamed.
    if (streams && t.capabilities.streaming && streamCursorColumns(t).length > 0) {
      add(
        'select_stream',
        () => ({
          type: nonNullList(this.object(t)),
          args: {
            [t.naming.fieldName('batch_size')]: { type: new GraphQLNonNull(GraphQLInt), description: 'maximum number of rows returned in a single batch' },
            cursor: { type: new GraphQLNonNull(new GraphQLList(streamCursorInput(this.shared, t))), description: 'cursor to stream the results returned by the query' },
            where: { type: this.boolExp(t), description: 'filter the rows returned' },
          },
          description: descriptions.select_stream,
        }),
        { kind: 'root_select_stream', table: t },
      );
    }
    return fieldGroup(makers);
  }
}

/** A remote schema's root fields on one of our roots (or its namespace), each with its FieldInfo. */
function remoteRootFields(fields: Map<string, FieldInfo>, remote: RemoteTypes, root: 'query' | 'mutation', typeName: string): GraphQLFieldConfigMap<unknown, unknown> {
  // A copy: objectType() points each config at shared extensions, and several schemas use the same remote.
  const out: GraphQLFieldConfigMap<unknown, unknown> = {};
  for (const [name, config] of Object.entries(remote[root])) {
    out[name] = { ...config, args: config.args && Object.fromEntries(Object.entries(config.args).map(([k, a]) => [k, { ...a }])) };
    fields.set(fieldKey(typeName, name), { kind: 'remote', remote, root, field: name });
  }
  return out;
}

function isForeignKeyOf(t: TableInfo, mapping: [string, string][]): boolean {
  return t.catalog.foreignKeys.some((fk) => fk.columns.length === mapping.length && mapping.every(([l]) => fk.columns.includes(l)));
}

function sortedFields<T>(f: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(f).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** `remotes`: the remote schemas the role sees, merged after the sources' fields (their names were checked not to clash). */
export function buildRoleSchema(
  model: RoleModel,
  shared: SharedTypes,
  remotes: readonly RemoteTypes[] = [],
  joins?: (t: TableInfo) => TableJoins,
  actions?: { view: ActionsView; list: readonly ActionMetadata[] },
): RoleSchema {
  const b = new RoleSchemaBuilder(model, shared, joins);
  // Actions' fields go on the roots themselves (no namespace), after the sources' and remote schemas'.
  const actionTypes = actions && actions.list.length > 0 ? new ActionTypes(actions.view, actions.list, model, b.fields, b) : null;
  // A source with a root-field namespace gets its fields under one field of that name, on every root.
  const rootOf = (rootName: keyof typeof NAMESPACE_TYPE_SUFFIX) => {
    const own: FieldGroup[] = [];
    // Per namespace field: its type's name (from the first owner's naming) and the groups under it.
    const namespaces = new Map<string, { typeName: string; groups: FieldGroup[] }>();
    const add = (naming: Namespacing | null, fieldsOf: (typeName: string) => FieldGroup) => {
      const ns = naming?.namespace;
      if (!ns) {
        own.push(fieldsOf(rootName));
        return;
      }
      const entry = namespaces.get(ns) ?? namespaces.set(ns, { typeName: naming.namespaceType(NAMESPACE_TYPE_SUFFIX[rootName]), groups: [] }).get(ns)!;
      entry.groups.push(fieldsOf(entry.typeName));
    };
    const done = () => {
      for (const [ns, { typeName, groups }] of namespaces) {
        if (groups.every((g) => g.names.length === 0)) continue;
        own.push(madeFields({ [ns]: { type: new GraphQLNonNull(new LazyFieldsType(typeName, () => groups, false)) } }));
        b.fields.set(fieldKey(rootName, ns), { kind: 'namespace' });
      }
      return own;
    };
    return { add, done };
  };
  const root = (rootName: 'query_root' | 'subscription_root', pick: (t: TableInfo) => Set<string> | null) => {
    const r = rootOf(rootName);
    for (const t of model.tables.values()) {
      if (rootName === 'subscription_root' && !t.capabilities.subscriptions) continue;
      r.add(t.naming, (typeName) => b.rootFields(t, typeName, pick(t), rootName === 'subscription_root'));
    }
    for (const f of model.functions) r.add(f.table.naming, (typeName) => b.functionRootFields(f, typeName, pick(f.table)));
    if (rootName === 'query_root') for (const remote of remotes) r.add(remote.naming, (typeName) => madeFields(remoteRootFields(b.fields, remote, 'query', typeName)));
    if (actionTypes) r.add(null, () => madeFields(actionTypes.rootFields(rootName)));
    return r.done();
  };
  const named = (groups: FieldGroup[]) => groups.some((g) => g.names.length > 0);
  // Each root is named when it is first used (a query names query_root only), its fields made when first read.
  const queryRoot = new LazyFieldsType(
    'query_root',
    () => {
      const groups = root('query_root', (t) => t.permission.queryRootFields);
      // A schema needs a query root with at least one field.
      return named(groups) ? groups : [madeFields({ no_queries_available: { type: new GraphQLNonNull(GraphQLString) } })];
    },
    true,
  );
  const optionalRoot = (name: string, groupsOf: () => FieldGroup[]) => () => {
    const groups = groupsOf();
    return named(groups) ? new LazyFieldsType(name, () => groups, true) : undefined;
  };
  const mutationRoot = optionalRoot('mutation_root', () => {
    const mutations = new MutationTypes(b, b.fields);
    const r = rootOf('mutation_root');
    for (const m of model.mutable.values()) r.add(m.naming, (typeName) => madeFields(mutations.rootFields(m, typeName)));
    for (const remote of remotes) if (Object.keys(remote.mutation).length) r.add(remote.naming, (typeName) => madeFields(remoteRootFields(b.fields, remote, 'mutation', typeName)));
    if (actionTypes) r.add(null, () => madeFields(actionTypes.rootFields('mutation_root')));
    return r.done();
  });
  // Every enum table's type is in every role's schema, used or not.
  const enumTypes = [...shared.tracked.enumTables.values()].map((e) => shared.enumType(e));
  const schema = new LazySchema({
    types: [...enumTypes, ...remotes.flatMap((r) => r.allTypes())],
    query: queryRoot,
    mutation: mutationRoot,
    subscription: optionalRoot('subscription_root', () => root('subscription_root', (t) => t.permission.subscriptionRootFields)),
  });
  return { role: model.role, schema, fields: b.fields, model };
}
