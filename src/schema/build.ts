/**
 * A role's GraphQL schema from its RoleModel: object, aggregate, bool_exp, order_by
 * and select_column types per table, and the query and subscription roots. The
 * FieldInfo/InputInfo tables beside it tell the compiler what each field means.
 */
import {
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  GraphQLBoolean,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLFieldConfigMap,
  type GraphQLInputFieldConfigMap,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLScalarType,
} from 'graphql';
import type { PgColumn, PgType } from '../backends/pg/catalog.js';
import type { FunctionInfo } from './functions.js';
import { comparisonFields, comparisonTypeFor } from './comparison.js';
import { tableKey, type EnumTableInfo, type RoleModel, type TableInfo } from './model.js';
import { tableRootField, type RootFieldKind } from './naming.js';
import { isComparable, isNumeric, scalarFamily, scalarName, scalarType, type ScalarFamily } from './scalars.js';
import { fieldKey, type FieldInfo, type InputInfo } from './types.js';
import { MutationTypes } from './mutation-types.js';

export interface RoleSchema {
  role: string;
  schema: GraphQLSchema;
  fields: Map<string, FieldInfo>;
  inputs: Map<string, InputInfo>;
  model: RoleModel;
}

const AGGREGATE_FNS = ['avg', 'max', 'min', 'stddev', 'stddev_pop', 'stddev_samp', 'sum', 'var_pop', 'var_samp', 'variance'] as const;
const NUMERIC_FNS = new Set(['avg', 'stddev', 'stddev_pop', 'stddev_samp', 'sum', 'var_pop', 'var_samp', 'variance']);

const nonNullList = (t: GraphQLOutputType) => new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(t)));
const inputList = (t: GraphQLInputType) => new GraphQLList(new GraphQLNonNull(t));

export class SchemaBuilder {
  readonly fields = new Map<string, FieldInfo>();
  readonly inputs = new Map<string, InputInfo>();
  private readonly objects = new Map<string, GraphQLObjectType>();
  private readonly boolExps = new Map<string, GraphQLInputObjectType>();
  private readonly orderBys = new Map<string, GraphQLInputObjectType>();
  private readonly selectColumns = new Map<string, GraphQLEnumType>();
  private readonly aggregates = new Map<string, GraphQLObjectType>();
  private readonly comparisons = new Map<string, GraphQLInputObjectType>();
  private readonly enumTypes = new Map<string, GraphQLEnumType>();

  private readonly orderByEnums = new Map<string, GraphQLEnumType>();

  /** `order_by` (or `OrderBy` with upper-case values under graphql-default). */
  orderByEnum(t: Pick<TableInfo, 'naming'>): GraphQLEnumType {
    const name = t.naming.convention === 'graphql-default' ? 'OrderBy' : 'order_by';
    let e = this.orderByEnums.get(name);
    if (!e) {
      const values: Record<string, { value: string; description: string }> = {};
      const add = (v: string, description: string) => (values[t.naming.enumValue(v)] = { value: v, description });
      add('asc', 'in ascending order, nulls last');
      add('asc_nulls_first', 'in ascending order, nulls first');
      add('asc_nulls_last', 'in ascending order, nulls last');
      add('desc', 'in descending order, nulls first');
      add('desc_nulls_first', 'in descending order, nulls first');
      add('desc_nulls_last', 'in descending order, nulls last');
      e = new GraphQLEnumType({ name, description: 'column ordering options', values });
      this.orderByEnums.set(name, e);
    }
    return e;
  }

  constructor(readonly model: RoleModel) {}

  private tn(t: TableInfo, suffix = ''): string {
    return t.naming.typeName(t.identifier + suffix);
  }

  /** The enum table a column references through a foreign key, if any (its values become an enum). */
  private enumTableOf(t: Pick<TableInfo, 'pg' | 'source'>, c: PgColumn): EnumTableInfo | null {
    for (const fk of t.pg.foreignKeys) {
      if (fk.columns.length !== 1 || fk.columns[0] !== c.name) continue;
      const e = this.model.enumTables.get(tableKey(t.source.name, fk.refTable));
      if (e) return e;
    }
    return null;
  }

  enumType(e: EnumTableInfo): GraphQLEnumType {
    const name = e.naming.typeName(e.identifier + '_enum');
    let t = this.enumTypes.get(name);
    if (!t) {
      const values: Record<string, { value: string; description: string | null }> = {};
      for (const v of e.values) values[e.naming.enumValue(v.value)] = { value: v.value, description: v.comment };
      t = new GraphQLEnumType({ name, values });
      this.enumTypes.set(name, t);
    }
    return t;
  }

  columnType(t: Pick<TableInfo, 'pg' | 'source'>, c: PgColumn): GraphQLScalarType | GraphQLEnumType {
    const e = this.enumTableOf(t, c);
    return e ? this.enumType(e) : scalarType(scalarName(c.type));
  }

  comparison(t: TableInfo, c: PgColumn): GraphQLInputObjectType {
    return this.comparisonType(this.columnType(t, c), this.enumTableOf(t, c) ? 'other' : scalarFamily(c.type));
  }

  /** `<scalar>_comparison_exp`, one per scalar (or enum) type. */
  private comparisonType(scalar: GraphQLScalarType | GraphQLEnumType, family: ScalarFamily): GraphQLInputObjectType {
    const name = `${scalar.name}_comparison_exp`;
    let cmp = this.comparisons.get(name);
    if (!cmp) {
      const jsonbCast =
        family === 'jsonb' ? new GraphQLInputObjectType({ name: 'jsonb_cast_exp', fields: () => ({ String: { type: this.comparisonType(GraphQLString, 'text') } }) }) : undefined;
      cmp = comparisonTypeFor(name, () => comparisonFields(family, scalar, { jsonbCast, scalarOf: scalarType }));
      this.comparisons.set(name, cmp);
    }
    return cmp;
  }

  target(t: TableInfo, key: string): TableInfo {
    return this.model.tables.get(key)!;
  }

  boolExp(t: TableInfo): GraphQLInputObjectType {
    let b = this.boolExps.get(t.key);
    if (b) return b;
    const name = this.tn(t, '_bool_exp');
    b = new GraphQLInputObjectType({
      name,
      description: `Boolean expression to filter rows from the table ${JSON.stringify(t.pg.schema === 'public' ? t.pg.name : `${t.pg.schema}.${t.pg.name}`)}. All fields are combined with a logical 'AND'.`,
      fields: () => {
        const f: GraphQLInputFieldConfigMap = {
          _and: { type: inputList(b!) },
          _not: { type: b! },
          _or: { type: inputList(b!) },
        };
        for (const c of t.columns) f[c.fieldName] = { type: this.comparison(t, c.column), description: c.description ?? undefined };
        for (const r of t.relationships) f[r.fieldName] = { type: this.boolExp(this.target(t, r.targetKey)) };
        for (const cf of t.computedFields) {
          // Computed fields that need arguments cannot be filtered on.
          if (cf.extraArgs.length > 0) continue;
          if (cf.returnsTable) {
            const target = this.model.tables.get(cf.returnsTable);
            if (target) f[cf.fieldName] = { type: this.boolExp(target) };
          } else {
            f[cf.fieldName] = { type: this.comparisonType(scalarType(scalarName(cf.fn.returnType)), scalarFamily(cf.fn.returnType)) };
          }
        }
        return sortedFields(f);
      },
    });
    this.boolExps.set(t.key, b);
    this.inputs.set(name, { kind: 'bool_exp', table: t });
    return b;
  }

  orderBy(t: TableInfo): GraphQLInputObjectType {
    let o = this.orderBys.get(t.key);
    if (o) return o;
    const name = this.tn(t, '_order_by');
    o = new GraphQLInputObjectType({
      name,
      description: `Ordering options when selecting data from ${JSON.stringify(t.pg.name)}.`,
      fields: () => {
        const f: GraphQLInputFieldConfigMap = {};
        for (const c of t.columns) if (isComparable(c.column.type) || c.column.type.name === 'bool') f[c.fieldName] = { type: this.orderByEnum(t) };
        for (const r of t.relationships) {
          const target = this.target(t, r.targetKey);
          if (r.kind === 'object') f[r.fieldName] = { type: this.orderBy(target) };
          else if (target.permission.allowAggregations) f[`${r.fieldName}_aggregate`] = { type: this.aggregateOrderBy(target) };
        }
        return sortedFields(f);
      },
    });
    this.orderBys.set(t.key, o);
    this.inputs.set(name, { kind: 'order_by', table: t });
    return o;
  }

  private aggregateOrderBy(t: TableInfo): GraphQLInputObjectType {
    const name = this.tn(t, '_aggregate_order_by');
    this.inputs.set(name, { kind: 'aggregate_order_by', table: t });
    return new GraphQLInputObjectType({
      name,
      description: `order by aggregate values of table ${JSON.stringify(t.pg.name)}`,
      fields: () => {
        const f: GraphQLInputFieldConfigMap = { count: { type: this.orderByEnum(t) } };
        for (const fn of AGGREGATE_FNS) {
          const cols = this.fnColumns(t, fn);
          if (cols.length === 0) continue;
          const fnName = this.tn(t, `_${fn}_order_by`);
          this.inputs.set(fnName, { kind: 'aggregate_fn_order_by', table: t, fn });
          f[fn] = {
            type: new GraphQLInputObjectType({
              name: fnName,
              fields: () => Object.fromEntries(cols.map((c) => [c.fieldName, { type: this.orderByEnum(t) }])),
            }),
          };
        }
        return f;
      },
    });
  }

  selectColumn(t: TableInfo): GraphQLEnumType {
    let e = this.selectColumns.get(t.key);
    if (!e) {
      const values: Record<string, { value: string; description: string }> = {};
      for (const c of t.columns) values[c.fieldName] = { value: c.column.name, description: 'column name' };
      e = new GraphQLEnumType({ name: this.tn(t, '_select_column'), description: `select columns of table ${JSON.stringify(t.pg.name)}`, values });
      this.selectColumns.set(t.key, e);
    }
    return e;
  }

  /** Arguments of a list of rows: distinct_on, limit, offset, order_by, where. */
  rowArgs(t: TableInfo): GraphQLFieldConfigArgumentMap {
    const args: GraphQLFieldConfigArgumentMap = {};
    const n = (base: string) => t.naming.fieldName(base);
    if (t.columns.length > 0) args[n('distinct_on')] = { type: inputList(this.selectColumn(t)), description: 'distinct select on columns' };
    args.limit = { type: GraphQLInt, description: 'limit the number of rows returned' };
    args.offset = { type: GraphQLInt, description: 'skip the first n rows. Use only with order_by' };
    args[n('order_by')] = { type: inputList(this.orderBy(t)), description: 'sort the rows by one or more columns' };
    args.where = { type: this.boolExp(t), description: 'filter the rows returned' };
    return args;
  }

  private fnColumns(t: TableInfo, fn: string) {
    return t.columns.filter((c) => (NUMERIC_FNS.has(fn) ? isNumeric(c.column.type) : isComparable(c.column.type)));
  }

  aggregate(t: TableInfo): GraphQLObjectType {
    let a = this.aggregates.get(t.key);
    if (a) return a;
    const name = this.tn(t, '_aggregate');
    const fieldsName = this.tn(t, '_aggregate_fields');
    const aggFields = new GraphQLObjectType({
      name: fieldsName,
      description: `aggregate fields of ${JSON.stringify(t.pg.name)}`,
      fields: () => {
        const f: GraphQLFieldConfigMap<unknown, unknown> = {
          count: { type: new GraphQLNonNull(GraphQLInt), args: { columns: { type: inputList(this.selectColumn(t)) }, distinct: { type: GraphQLBoolean } } },
        };
        for (const fn of AGGREGATE_FNS) {
          const cols = this.fnColumns(t, fn);
          if (cols.length === 0) continue;
          const fnType = new GraphQLObjectType({
            name: this.tn(t, `_${fn}_fields`),
            description: `aggregate ${fn} on columns`,
            fields: () =>
              Object.fromEntries(
                cols.map((c) => [c.fieldName, { type: NUMERIC_FNS.has(fn) && fn !== 'sum' ? GraphQLFloat : (this.columnType(t, c.column) as GraphQLOutputType) }]),
              ),
          });
          f[fn] = { type: fnType };
          this.fields.set(fieldKey(fieldsName, fn), { kind: 'aggregate_fn', table: t, fn });
        }
        return f;
      },
    });
    a = new GraphQLObjectType({
      name,
      description: `aggregated selection of ${JSON.stringify(t.pg.name)}`,
      fields: () => ({ aggregate: { type: aggFields }, nodes: { type: nonNullList(this.object(t)) } }),
    });
    this.fields.set(fieldKey(name, 'aggregate'), { kind: 'aggregate_fields', table: t });
    this.fields.set(fieldKey(name, 'nodes'), { kind: 'aggregate_object', table: t });
    this.aggregates.set(t.key, a);
    return a;
  }

  object(t: TableInfo): GraphQLObjectType {
    let o = this.objects.get(t.key);
    if (o) return o;
    const name = this.tn(t);
    const tableComment = typeof t.meta.configuration?.comment === 'string' ? t.meta.configuration.comment : t.pg.comment;
    o = new GraphQLObjectType({
      name,
      description: tableComment ?? `columns and relationships of ${JSON.stringify(t.pg.name)}`,
      fields: () => {
        const f: GraphQLFieldConfigMap<unknown, unknown> = {};
        for (const c of t.columns) {
          const conditional = t.permission.columns.get(c.column.name) !== null;
          const base = this.columnType(t, c.column) as GraphQLOutputType;
          const type = c.column.nullable || conditional ? base : new GraphQLNonNull(base);
          const args: GraphQLFieldConfigArgumentMap = {};
          if (c.column.type.name === 'json' || c.column.type.name === 'jsonb') args.path = { type: GraphQLString, description: 'JSON select path' };
          f[c.fieldName] = { type, args, description: c.description ?? undefined };
          this.fields.set(fieldKey(name, c.fieldName), { kind: 'column', table: t, column: c });
        }
        for (const r of t.relationships) {
          const target = this.target(t, r.targetKey);
          if (r.kind === 'object') {
            const required = r.join.mapping.every(([local]) => t.pg.columns.find((c) => c.name === local)?.nullable === false) && isForeignKeyOf(t, r.join.mapping);
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
          if (cf.extraArgs.length > 0) args.args = { type: new GraphQLNonNull(this.argsType(t, cf.fn.name, cf.extraArgs)) };
          if (cf.returnsTable) {
            const target = this.model.tables.get(cf.returnsTable);
            if (!target) continue;
            f[cf.fieldName] = { type: nonNullList(this.object(target)), args: { ...args, ...this.rowArgs(target) }, description: cf.description ?? undefined };
          } else {
            f[cf.fieldName] = { type: scalarType(scalarName(cf.fn.returnType)), args, description: cf.description ?? `A computed field, executes function ${JSON.stringify(cf.fn.name)}` };
          }
          this.fields.set(fieldKey(name, cf.fieldName), { kind: 'computed', table: t, computed: cf });
        }
        // Introspection lists fields by name, as the well-known engine does.
        return sortedFields(f);
      },
    });
    this.objects.set(t.key, o);
    return o;
  }

  private readonly functionArgs = new Map<string, GraphQLInputObjectType>();

  /** `<fn>_args`: the arguments a caller gives, all nullable. */
  argsType(t: TableInfo, name: string, args: { name: string | null; type: PgType }[]): GraphQLInputObjectType {
    const typeName = t.naming.typeName(`${name}_args`);
    let a = this.functionArgs.get(typeName);
    if (!a) {
      a = new GraphQLInputObjectType({ name: typeName, fields: () => Object.fromEntries(args.filter((x) => x.name).map((x) => [x.name!, { type: scalarType(scalarName(x.type)) }])) });
      this.functionArgs.set(typeName, a);
    }
    return a;
  }

  /** Root fields of a tracked function returning rows of a table the role may select. */
  functionRootFields(f: FunctionInfo, rootType: string, allowed: Set<string> | null): GraphQLFieldConfigMap<unknown, unknown> {
    const out: GraphQLFieldConfigMap<unknown, unknown> = {};
    const t = f.table;
    const args: GraphQLFieldConfigArgumentMap = f.inputArgs.length ? { args: { type: new GraphQLNonNull(this.argsType(t, f.fn.name, f.inputArgs)), description: `input parameters for function ${JSON.stringify(f.rootName)}` } } : {};
    const description = f.description ?? `execute function ${JSON.stringify(f.fn.name)} which returns ${JSON.stringify(t.pg.name)}`;
    if (!allowed || allowed.has('select')) {
      out[f.rootName] = { type: nonNullList(this.object(t)), args: { ...args, ...this.rowArgs(t) }, description };
      this.fields.set(fieldKey(rootType, f.rootName), { kind: 'root_function', table: t, fn: f });
    }
    if (t.permission.allowAggregations && (!allowed || allowed.has('select_aggregate'))) {
      out[f.aggregateName] = { type: new GraphQLNonNull(this.aggregate(t)), args: { ...args, ...this.rowArgs(t) }, description: `execute function ${JSON.stringify(f.fn.name)} and query aggregates on result of table type ${JSON.stringify(t.pg.name)}` };
      this.fields.set(fieldKey(rootType, f.aggregateName), { kind: 'root_function_aggregate', table: t, fn: f });
    }
    return out;
  }

  /** Root fields of one table, for the query (or subscription) root. */
  rootFields(t: TableInfo, rootType: string, allowed: Set<string> | null): GraphQLFieldConfigMap<unknown, unknown> {
    const out: GraphQLFieldConfigMap<unknown, unknown> = {};
    const add = (kind: RootFieldKind, make: () => GraphQLFieldConfigMap<unknown, unknown>[string], info: FieldInfo) => {
      if (allowed && !allowed.has(kind)) return;
      const { name, comment } = tableRootField(t.naming, t.meta, kind);
      out[name] = { ...make(), description: comment ?? make().description };
      this.fields.set(fieldKey(rootType, name), info);
    };
    const shown = JSON.stringify(t.pg.name);
    add('select', () => ({ type: nonNullList(this.object(t)), args: this.rowArgs(t), description: `fetch data from the table: ${shown}` }), { kind: 'root_select', table: t });
    if (t.permission.allowAggregations) {
      add('select_aggregate', () => ({ type: new GraphQLNonNull(this.aggregate(t)), args: this.rowArgs(t), description: `fetch aggregated fields from the table: ${shown}` }), {
        kind: 'root_select_aggregate',
        table: t,
      });
    }
    const pk = t.pg.primaryKey;
    const pkColumns = pk ? pk.columns.map((c) => t.columns.find((x) => x.column.name === c)) : [];
    if (pk && pkColumns.every((c) => c !== undefined)) {
      add(
        'select_by_pk',
        () => ({
          type: this.object(t),
          args: Object.fromEntries(pkColumns.map((c) => [c!.fieldName, { type: new GraphQLNonNull(this.columnType(t, c!.column)) }])),
          description: `fetch data from the table: ${shown} using primary key columns`,
        }),
        { kind: 'root_select_by_pk', table: t },
      );
    }
    return out;
  }
}

function isForeignKeyOf(t: TableInfo, mapping: [string, string][]): boolean {
  return t.pg.foreignKeys.some((fk) => fk.columns.length === mapping.length && mapping.every(([l]) => fk.columns.includes(l)));
}

function sortedFields<T>(f: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(f).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export function buildRoleSchema(model: RoleModel): RoleSchema {
  const b = new SchemaBuilder(model);
  const root = (rootName: 'query_root' | 'subscription_root', pick: (t: TableInfo) => Set<string> | null) => {
    const own: GraphQLFieldConfigMap<unknown, unknown> = {};
    const namespaces = new Map<string, GraphQLFieldConfigMap<unknown, unknown>>();
    for (const t of model.tables.values()) {
      const ns = t.naming.namespace;
      const typeName = ns ? `${ns}_${rootName === 'query_root' ? 'query' : 'subscription'}` : rootName;
      const target = ns ? (namespaces.get(ns) ?? namespaces.set(ns, {}).get(ns)!) : own;
      Object.assign(target, b.rootFields(t, typeName, pick(t)));
    }
    for (const f of model.functions) {
      const ns = f.table.naming.namespace;
      const typeName = ns ? `${ns}_${rootName === 'query_root' ? 'query' : 'subscription'}` : rootName;
      const target = ns ? (namespaces.get(ns) ?? namespaces.set(ns, {}).get(ns)!) : own;
      Object.assign(target, b.functionRootFields(f, typeName, pick(f.table)));
    }
    for (const [ns, fields] of namespaces) {
      const typeName = `${ns}_${rootName === 'query_root' ? 'query' : 'subscription'}`;
      own[ns] = { type: new GraphQLNonNull(new GraphQLObjectType({ name: typeName, fields })) };
      b.fields.set(fieldKey(rootName, ns), { kind: 'namespace' });
    }
    return own;
  };
  const queryFields = root('query_root', (t) => t.permission.queryRootFields);
  const subscriptionFields = root('subscription_root', (t) => t.permission.subscriptionRootFields);
  // A schema needs a query root with at least one field.
  if (Object.keys(queryFields).length === 0) queryFields.no_queries_available = { type: new GraphQLNonNull(GraphQLString) };
  const mutations = new MutationTypes(b, b.fields);
  const mutationFields: GraphQLFieldConfigMap<unknown, unknown> = {};
  for (const m of model.mutable.values()) Object.assign(mutationFields, mutations.rootFields(m));
  // Every enum table's type is in every role's schema, used or not.
  const enumTypes = [...model.enumTables.values()].map((e) => b.enumType(e));
  const schema = new GraphQLSchema({
    types: enumTypes,
    query: new GraphQLObjectType({ name: 'query_root', fields: sortedFields(queryFields) }),
    mutation: Object.keys(mutationFields).length ? new GraphQLObjectType({ name: 'mutation_root', fields: sortedFields(mutationFields) }) : undefined,
    subscription: Object.keys(subscriptionFields).length ? new GraphQLObjectType({ name: 'subscription_root', fields: sortedFields(subscriptionFields) }) : undefined,
  });
  return { role: model.role, schema, fields: b.fields, inputs: b.inputs, model };
}
