/**
 * Actions in a role's schema (spec "Action"): the consistent actions the role may call (admin
 * all; a role with a permission; an inherited role when any parent may, rule 6), their
 * argument and output types from the custom types, and relationships from output object types
 * to the tables the role may select. A synchronous action is a field of the query or mutation
 * root; an asynchronous one a mutation answering the call's id (`uuid!`) and a query and
 * subscription field `<name>(id: uuid!)` giving `{id, created_at, errors, output}`.
 */
import {
  getNullableType,
  GraphQLList,
  GraphQLNonNull,
  parseType,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLFieldConfigMap,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLType,
  type TypeNode,
} from 'graphql';
import { actionAllowed, actions, type ActionDefinition, type ActionMetadata } from '../metadata/actions.js';
import { storedCustomTypes, type CustomRelationship, type CustomTypes } from '../metadata/custom-types.js';
import { actionObjectName } from '../metadata/resolve/actions.js';
import type { InconsistentObject, Metadata } from '../metadata/types.js';
import { enumType, inputObjectType, objectType } from './graphql-types.js';
import { tableKey } from '../catalog/types.js';
import type { RoleModel, TableInfo } from './model.js';
import { scalarType } from './scalars.js';
import { fieldKey, type FieldInfo } from './types.js';
import { ACTION_RESULT_SCALARS } from '../db/action-log-scalars.js';

/** What the schema needs of a snapshot's actions. */
export interface ActionsView {
  metadata: Metadata;
  inconsistencies: readonly InconsistentObject[];
  /** An inherited role's parents. */
  parents(role: string): readonly string[] | undefined;
}

/** The consistent actions `role` may call (none while the custom types are inconsistent: their types may not be built). */
export function visibleActions(view: ActionsView, role: string): ActionMetadata[] {
  if (view.inconsistencies.some((i) => i.type === 'custom_types')) return [];
  const broken = new Set(view.inconsistencies.filter((i) => i.type === 'action').map((i) => i.name));
  return actions(view.metadata).filter((a) => !broken.has(actionObjectName(a.name)) && actionAllowed(a, role, (r) => view.parents(r)));
}

/** A relationship of an action's output type, as the compiler joins it. */
export interface ActionRelationshipInfo {
  relationship: CustomRelationship;
  target: TableInfo;
}

export type RootTypeName = 'query_root' | 'mutation_root' | 'subscription_root';

/** The roots an action's field (named as the action) is on. */
export function actionRoots(d: ActionDefinition): readonly RootTypeName[] {
  if (d.kind === 'asynchronous') return ['mutation_root', 'query_root', 'subscription_root'];
  return [d.type === 'query' ? 'query_root' : 'mutation_root'];
}

/** The types and root fields of one role's actions. */
export class ActionTypes {
  private readonly named = new Map<string, GraphQLNamedType>();
  private readonly ct: CustomTypes;

  constructor(
    view: ActionsView,
    readonly list: readonly ActionMetadata[],
    private readonly model: RoleModel,
    private readonly fields: Map<string, FieldInfo>,
    /** The object type of a table and the arguments of a list of its rows, as the role's schema has them. */
    private readonly tables: { object(t: TableInfo): GraphQLOutputType; rowArgs(t: TableInfo): GraphQLFieldConfigArgumentMap },
  ) {
    this.ct = storedCustomTypes(view.metadata);
  }

  private namedType(name: string): GraphQLNamedType {
    const made = this.named.get(name);
    if (made) return made;
    let t: GraphQLNamedType;
    const e = this.ct.enums?.find((x) => x.name === name);
    const i = this.ct.input_objects?.find((x) => x.name === name);
    const o = this.ct.objects?.find((x) => x.name === name);
    if (e) {
      t = enumType({ name, description: e.description, values: Object.fromEntries(e.values.map((v) => [v.value, { value: v.value, description: v.description, deprecationReason: v.is_deprecated ? 'No longer supported' : undefined }])) });
    } else if (i) {
      t = inputObjectType({ name, description: i.description, fields: () => Object.fromEntries(i.fields.map((f) => [f.name, { type: this.typeOf(f.type) as GraphQLInputType, description: f.description }])) });
    } else if (o) {
      t = objectType({
        name,
        description: o.description,
        fields: () => {
          const out: GraphQLFieldConfigMap<unknown, unknown> = {};
          for (const f of o.fields) out[f.name] = { type: this.typeOf(f.type) as GraphQLOutputType, description: f.description };
          for (const rel of o.relationships ?? []) {
            const target = this.model.tables.get(tableKey(rel.source ?? 'default', rel.remote_table));
            if (!target) continue;
            const object = this.tables.object(target);
            out[rel.name] = rel.type === 'object' ? { type: object } : { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(object))), args: this.tables.rowArgs(target) };
            this.fields.set(fieldKey(name, rel.name), { kind: 'action_relationship', relationship: rel, target });
          }
          return out;
        },
      });
    } else {
      t = scalarType(name);
    }
    this.named.set(name, t);
    return t;
  }

  /** A type text (`[Foo!]!`) as a GraphQL type. */
  typeOf(text: string): GraphQLType {
    const wrap = (n: TypeNode): GraphQLType => {
      if (n.kind === 'NonNullType') return new GraphQLNonNull(wrap(n.type) as GraphQLInputType & GraphQLOutputType);
      if (n.kind === 'ListType') return new GraphQLList(wrap(n.type));
      return this.namedType(n.name.value);
    };
    return wrap(parseType(text));
  }

  private args(a: ActionMetadata): GraphQLFieldConfigArgumentMap {
    return Object.fromEntries((a.definition.arguments ?? []).map((x) => [x.name, { type: this.typeOf(x.type) as GraphQLInputType, description: x.description }]));
  }

  /** Root fields on `root` (`query_root`, `mutation_root`, `subscription_root`). */
  rootFields(root: RootTypeName): GraphQLFieldConfigMap<unknown, unknown> {
    const out: GraphQLFieldConfigMap<unknown, unknown> = {};
    for (const a of this.list) {
      const d = a.definition;
      const description = a.comment;
      if (!actionRoots(d).includes(root)) continue;
      if (d.kind === 'synchronous') {
        out[a.name] = { type: this.typeOf(d.output_type) as GraphQLOutputType, args: this.args(a), description };
        this.fields.set(fieldKey(root, a.name), { kind: 'action', action: a });
      } else if (root === 'mutation_root') {
        out[a.name] = { type: new GraphQLNonNull(scalarType('uuid')), args: this.args(a), description };
        this.fields.set(fieldKey(root, a.name), { kind: 'action', action: a });
      } else {
        out[a.name] = { type: this.resultType(a), args: { id: { type: new GraphQLNonNull(scalarType('uuid')) } }, description };
        this.fields.set(fieldKey(root, a.name), { kind: 'action_result', action: a });
      }
    }
    return out;
  }

  /** An asynchronous action's result type, named as the action. */
  private resultType(a: ActionMetadata): GraphQLOutputType {
    const made = this.named.get(a.name);
    if (made) return made as GraphQLOutputType;
    const t = objectType({
      name: a.name,
      fields: () => ({
        id: { type: new GraphQLNonNull(scalarType(ACTION_RESULT_SCALARS.id)) },
        created_at: { type: new GraphQLNonNull(scalarType(ACTION_RESULT_SCALARS.created_at)) },
        errors: { type: scalarType(ACTION_RESULT_SCALARS.errors) },
        // Null until the call is done: nullable whatever the output type says.
        output: { type: getNullableType(this.typeOf(a.definition.output_type)) as GraphQLOutputType },
      }),
    });
    this.named.set(a.name, t);
    return t;
  }
}

/** Stands for what a role's actions make of its schema: roles with the same key get the same fields. */
export const actionsShapeKey = (list: readonly ActionMetadata[]) => list.map((a) => a.name).join('\u0000');
