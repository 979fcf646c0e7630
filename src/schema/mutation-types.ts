/**
 * The mutation root of a role: insert/update/delete fields per table and their input
 * types, following the role's insert, update and delete permissions.
 */
import {
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLString,
  type GraphQLEnumType,
  type GraphQLInputObjectType,
  type GraphQLObjectType,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLFieldConfigMap,
  type GraphQLInputFieldConfigMap,
  type GraphQLInputType,
  type GraphQLOutputType,
} from 'graphql';
import { enumType, inputObjectType, objectType } from './graphql-types.js';
import type { MutableTableInfo, RoleModel, TableInfo } from './model.js';
import type { SharedTypes } from './shared-types.js';
import { tableRootField, type RootFieldKind } from './naming.js';
import { fieldKey, type FieldInfo } from './types.js';

/** What the mutation types read of the role's other types (`build.ts` makes both). */
export interface RoleTypes {
  readonly model: RoleModel;
  readonly shared: SharedTypes;
  boolExp(t: TableInfo): GraphQLInputObjectType;
  object(t: TableInfo): GraphQLObjectType;
}

const list = (t: GraphQLInputType) => new GraphQLList(new GraphQLNonNull(t));
const required = (t: GraphQLInputType) => new GraphQLNonNull(t);

/** The deprecated upsert action (`ignore` = DO NOTHING), still accepted. */
const CONFLICT_ACTION = enumType({
  name: 'conflict_action',
  description: 'conflict action',
  values: { ignore: { description: 'ignore the insert on this row' }, update: { description: 'update the row with the given values' } },
});

export class MutationTypes {
  private readonly insertInputs = new Map<string, GraphQLInputObjectType>();
  private readonly relationInsertInputs = new Map<string, GraphQLInputObjectType>();
  private readonly onConflicts = new Map<string, GraphQLInputObjectType | null>();
  private readonly ifMatcheds = new Map<string, GraphQLInputObjectType | null>();
  private readonly responses = new Map<string, GraphQLObjectType>();

  constructor(
    private readonly b: RoleTypes,
    private readonly fields: Map<string, FieldInfo>,
  ) {}

  private tn(m: MutableTableInfo, suffix: string): string {
    return m.naming.typeName(m.identifier + suffix);
  }

  private target(key: string): MutableTableInfo {
    return this.b.model.mutable.get(key)!;
  }

  insertInput(m: MutableTableInfo): GraphQLInputObjectType {
    let t = this.insertInputs.get(m.key);
    if (t) return t;
    t = inputObjectType({
      name: this.tn(m, '_insert_input'),
      description: `input type for inserting data into table ${JSON.stringify(m.catalog.name)}`,
      fields: () => {
        const f: GraphQLInputFieldConfigMap = {};
        for (const c of m.columns) {
          if (m.insert!.columns.has(c.column.name) && !m.insert!.set.has(c.column.name)) f[c.fieldName] = { type: this.b.shared.columnType(m, c.column) };
        }
        if (m.capabilities.nestedInserts) for (const r of m.relationships) f[r.fieldName] = { type: this.relationInsertInput(this.target(r.targetKey), r.kind) };
        return f;
      },
    });
    this.insertInputs.set(m.key, t);
    return t;
  }

  /** One per target and kind, however many relationships lead there. */
  private relationInsertInput(target: MutableTableInfo, kind: 'object' | 'array'): GraphQLInputObjectType {
    const key = `${kind}\u0000${target.key}`;
    let t = this.relationInsertInputs.get(key);
    if (t) return t;
    const data = kind === 'object' ? required(this.insertInput(target)) : required(list(this.insertInput(target)));
    const onConflict = this.onConflict(target);
    t = inputObjectType({
      name: this.tn(target, kind === 'object' ? '_obj_rel_insert_input' : '_arr_rel_insert_input'),
      description: `input type for inserting ${kind} relation for remote table ${JSON.stringify(target.catalog.name)}`,
      fields: { data: { type: data }, ...(onConflict ? { on_conflict: { type: onConflict, description: 'upsert condition' } } : {}) },
    });
    this.relationInsertInputs.set(key, t);
    return t;
  }

  /** Upserts need a backend that has them (`on_conflict`), a unique constraint and the role's update permission. */
  onConflict(m: MutableTableInfo): GraphQLInputObjectType | null {
    if (this.onConflicts.has(m.key)) return this.onConflicts.get(m.key)!;
    const constraints = [m.catalog.primaryKey, ...m.catalog.uniqueConstraints].filter((c) => c !== null);
    if (constraints.length === 0 || !m.update || m.capabilities.upsert !== 'on_conflict') {
      this.onConflicts.set(m.key, null);
      return null;
    }
    const constraint = enumType({
      name: this.tn(m, '_constraint'),
      description: `unique or primary key constraints on table ${JSON.stringify(m.catalog.name)}`,
      values: Object.fromEntries(constraints.map((c) => [c!.name, { value: c!.name }])),
    });
    const fields: GraphQLInputFieldConfigMap = {
      constraint: { type: required(constraint) },
      update_columns: { type: required(list(this.updateColumn(m))), defaultValue: [] },
      action: { type: CONFLICT_ACTION, deprecationReason: 'use update_columns: [] to do nothing' },
    };
    if (m.selectable) fields.where = { type: this.b.boolExp(m.selectable) };
    const t = inputObjectType({ name: this.tn(m, '_on_conflict'), description: `on_conflict condition type for table ${JSON.stringify(m.catalog.name)}`, fields });
    this.onConflicts.set(m.key, t);
    return t;
  }

  /**
   * SQL Server's upsert (`if_matched`, as the well-known engine has it): needs the role's select
   * and update permissions; rows match on columns the role may select (not text/ntext/image,
   * which SQL Server cannot compare).
   */
  private ifMatched(m: MutableTableInfo): GraphQLInputObjectType | null {
    const matchable = m.selectable?.columns.filter((c) => !/^(n?text|image)$/i.test(c.column.type.display)) ?? [];
    if (!m.update || !m.selectable || matchable.length === 0 || m.capabilities.upsert !== 'if_matched') return null;
    const matchColumn = enumType({
      name: this.tn(m, '_insert_match_column'),
      description: `select match_columns of table ${JSON.stringify(m.catalog.name)}`,
      values: Object.fromEntries(matchable.map((c) => [c.fieldName, { value: c.column.name, description: 'column name' }])),
    });
    return inputObjectType({
      name: this.tn(m, '_if_matched'),
      description: `upsert condition type for table ${JSON.stringify(m.catalog.name)}`,
      fields: {
        match_columns: { type: required(list(matchColumn)), defaultValue: [] },
        update_columns: { type: required(list(this.updateColumn(m))), defaultValue: [] },
        where: { type: this.b.boolExp(m.selectable) },
      },
    });
  }

  /** The upsert argument of an insert field, as the backend writes upserts. */
  private upsertArg(m: MutableTableInfo): GraphQLFieldConfigArgumentMap {
    const onConflict = this.onConflict(m);
    if (onConflict) return { on_conflict: { type: onConflict, description: 'upsert condition' } };
    let ifMatched = this.ifMatcheds.get(m.key);
    if (ifMatched === undefined) this.ifMatcheds.set(m.key, (ifMatched = this.ifMatched(m)));
    return ifMatched ? { if_matched: { type: ifMatched, description: 'upsert condition' } } : {};
  }

  /** `<t>_update_column`: the columns the role may update. */
  private updateColumn(m: MutableTableInfo): GraphQLEnumType {
    const updatable = m.columns.filter((c) => m.update!.columns.has(c.column.name));
    return enumType({
      name: this.tn(m, '_update_column'),
      description: `update columns of table ${JSON.stringify(m.catalog.name)}`,
      values: updatable.length ? Object.fromEntries(updatable.map((c) => [c.fieldName, { value: c.column.name, description: 'column name' }])) : { _PLACEHOLDER: { value: null, description: 'placeholder (do not use)' } },
    });
  }

  response(m: MutableTableInfo): GraphQLObjectType {
    let t = this.responses.get(m.key);
    if (!t) {
      const f: GraphQLFieldConfigMap<unknown, unknown> = { [m.naming.fieldName('affected_rows')]: { type: new GraphQLNonNull(GraphQLInt), description: 'number of rows affected by the mutation' } };
      if (m.selectable) f.returning = { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(this.b.object(m.selectable)))), description: 'data from the rows affected by the mutation' };
      t = objectType({ name: this.tn(m, '_mutation_response'), description: `response of any mutation on the table ${JSON.stringify(m.catalog.name)}`, fields: f });
      this.responses.set(m.key, t);
    }
    return t;
  }

  /** `_set`, `_inc` and the binary JSON operators of an update. */
  private updateOperators(m: MutableTableInfo): GraphQLFieldConfigArgumentMap {
    const cols = m.columns.filter((c) => m.update!.columns.has(c.column.name) && !m.update!.set.has(c.column.name));
    const input = (suffix: string, pick: typeof cols, type: (c: (typeof cols)[number]) => GraphQLInputType, description: string) =>
      pick.length
        ? inputObjectType({ name: this.tn(m, suffix), description, fields: Object.fromEntries(pick.map((c) => [c.fieldName, { type: type(c) }])) })
        : null;
    const ops: [string, GraphQLInputObjectType | null][] = [
      ['_set', input('_set_input', cols, (c) => this.b.shared.columnType(m, c.column), `input type for updating data in table ${JSON.stringify(m.catalog.name)}`)],
      ['_inc', input('_inc_input', cols.filter((c) => c.column.type.traits.summable), (c) => this.b.shared.columnType(m, c.column), 'input type for incrementing numeric columns in table')],
    ];
    const json = cols.filter((c) => c.column.type.traits.family === 'binary-json');
    if (json.length) {
      // Described with the type's scalar name, as the well-known engine's schema describes them.
      const scalar = json[0]!.column.type.traits.scalar;
      ops.push(
        ['_append', input('_append_input', json, (c) => this.b.shared.columnType(m, c.column), `append existing ${scalar} value of filtered columns with new ${scalar} value`)],
        ['_prepend', input('_prepend_input', json, (c) => this.b.shared.columnType(m, c.column), `prepend existing ${scalar} value of filtered columns with new ${scalar} value`)],
        ['_delete_key', input('_delete_key_input', json, () => GraphQLString, 'delete key/value pair or string element. key/value pairs are matched based on their key value')],
        ['_delete_elem', input('_delete_elem_input', json, () => GraphQLInt, 'delete the array element with specified index (negative integers count from the end). throws an error if top level container is not an array')],
        ['_delete_at_path', input('_delete_at_path_input', json, () => list(GraphQLString), 'delete the field or element with specified path (for JSON arrays, negative integers count from the end)')],
      );
    }
    return Object.fromEntries(ops.filter(([, t]) => t !== null).map(([k, t]) => [k, { type: t! }]));
  }

  private pkArgs(m: MutableTableInfo): GraphQLFieldConfigArgumentMap | null {
    const pk = m.catalog.primaryKey;
    if (!pk) return null;
    return Object.fromEntries(pk.columns.map((c) => {
      const col = m.columns.find((x) => x.column.name === c)!;
      return [col.fieldName, { type: required(this.b.shared.columnType(m, col.column)) }];
    }));
  }

  /** The table's mutation fields, as fields of `typeName` (`mutation_root`, or its source's namespace type). */
  rootFields(m: MutableTableInfo, typeName: string): GraphQLFieldConfigMap<unknown, unknown> {
    const out: GraphQLFieldConfigMap<unknown, unknown> = {};
    const add = (kind: RootFieldKind, config: GraphQLFieldConfigMap<unknown, unknown>[string], info: FieldInfo) => {
      const { name, comment } = tableRootField(m.naming, m.meta, kind);
      out[name] = comment ? { ...config, description: comment } : config;
      this.fields.set(fieldKey(typeName, name), info);
    };
    const shown = JSON.stringify(m.catalog.name);
    const object = m.selectable ? this.b.object(m.selectable) : null;
    if (m.insert) {
      const conflictArg = this.upsertArg(m);
      add('insert', { type: this.response(m), args: { objects: { type: required(list(this.insertInput(m))), description: 'the rows to be inserted' }, ...conflictArg }, description: `insert data into the table: ${shown}` }, { kind: 'root_insert', mtable: m });
      if (object) add('insert_one', { type: object, args: { object: { type: required(this.insertInput(m)), description: 'the row to be inserted' }, ...conflictArg }, description: `insert a single row into the table: ${shown}` }, { kind: 'root_insert_one', mtable: m });
    }
    const pk = this.pkArgs(m);
    if (m.update && m.selectable) {
      const ops = this.updateOperators(m);
      if (Object.keys(ops).length > 0) {
        const where = { where: { type: required(this.b.boolExp(m.selectable)), description: 'filter the rows which have to be updated' } };
        add('update', { type: this.response(m), args: { ...ops, ...where }, description: `update data of the table: ${shown}` }, { kind: 'root_update', mtable: m });
        if (pk && object) {
          const pkInput = inputObjectType({ name: this.tn(m, '_pk_columns_input'), description: `primary key columns input for table: ${shown}`, fields: pk as GraphQLInputFieldConfigMap });
          add('update_by_pk', { type: object, args: { ...ops, pk_columns: { type: required(pkInput) } }, description: `update single row of the table: ${shown}` }, { kind: 'root_update_by_pk', mtable: m });
        }
        const updates = inputObjectType({ name: this.tn(m, '_updates'), fields: { ...ops, ...where } as GraphQLInputFieldConfigMap });
        add('update_many', { type: new GraphQLList(this.response(m) as GraphQLOutputType), args: { updates: { type: required(list(updates)), description: 'updates to execute, in order' } }, description: `update multiples rows of table: ${shown}` }, { kind: 'root_update_many', mtable: m });
      }
    }
    if (m.delete && m.selectable) {
      add('delete', { type: this.response(m), args: { where: { type: required(this.b.boolExp(m.selectable)), description: 'filter the rows which have to be deleted' } }, description: `delete data from the table: ${shown}` }, { kind: 'root_delete', mtable: m });
      if (pk && object) add('delete_by_pk', { type: object, args: pk, description: `delete single row from the table: ${shown}` }, { kind: 'root_delete_by_pk', mtable: m });
    }
    return out;
  }
}
