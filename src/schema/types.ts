/** What the compiler looks up about a generated GraphQL field (kept beside the graphql-js schema). */
import type { RemoteTypes } from './remote-types.js';
import type { ActionMetadata } from '../metadata/actions.js';
import type { CustomRelationship } from '../metadata/custom-types.js';
import type { RemoteJoin, SourceJoin } from './remote-relationships.js';
import type { ColumnInfo, ComputedFieldInfo, FunctionInfo, MutableTableInfo, RelationshipInfo, TableInfo } from './model.js';

export type FieldInfo =
  | { kind: 'column'; table: TableInfo; column: ColumnInfo }
  | { kind: 'relationship'; table: TableInfo; relationship: RelationshipInfo }
  | { kind: 'relationship_aggregate'; table: TableInfo; relationship: RelationshipInfo }
  | { kind: 'computed'; table: TableInfo; computed: ComputedFieldInfo }
  | { kind: 'root_select'; table: TableInfo }
  | { kind: 'root_select_by_pk'; table: TableInfo }
  | { kind: 'root_select_aggregate'; table: TableInfo }
  | { kind: 'root_select_stream'; table: TableInfo }
  | { kind: 'root_function' | 'root_function_aggregate'; table: TableInfo; fn: FunctionInfo }
  /** A remote schema's root field (`field`: its customized name, under the remote's root type `RemoteTypes.roots`). */
  | { kind: 'remote'; remote: RemoteTypes; root: 'query' | 'mutation'; field: string }
  /** A remote relationship of a table (schema/remote-relationships.ts). */
  | { kind: 'remote_relationship'; table: TableInfo; join: RemoteJoin }
  /** A `to_source` remote relationship of a table, to a table the role may select. */
  | { kind: 'source_relationship'; table: TableInfo; join: SourceJoin; target: TableInfo }
  /** An action's root field (schema/actions.ts): a call of its handler, or an asynchronous action's call made. */
  | { kind: 'action'; action: ActionMetadata }
  /** An asynchronous action's result by id. */
  | { kind: 'action_result'; action: ActionMetadata }
  /** A relationship of an action's output object type to a table the role may select. */
  | { kind: 'action_relationship'; relationship: CustomRelationship; target: TableInfo }
  /** A source's root-field namespace object (`customization.root_fields.namespace`). */
  | { kind: 'namespace' }
  | { kind: 'root_insert' | 'root_insert_one' | 'root_update' | 'root_update_by_pk' | 'root_update_many' | 'root_delete' | 'root_delete_by_pk'; mtable: MutableTableInfo };

export const fieldKey = (typeName: string, fieldName: string) => `${typeName}.${fieldName}`;
