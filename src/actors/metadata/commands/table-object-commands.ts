/**
 * The commands on what a table carries (relationships, permissions, computed
 * fields), named as `/v1/query` names them; `/v1/metadata` adds the backend prefix.
 * And the inherited-role commands, which are the same on both endpoints.
 */
import { PERMISSION_KINDS } from '../../../metadata/resolve/types.js';
import { addComputedField, dropComputedField } from './computed-fields.js';
import type { Command } from './context.js';
import { createRemoteRelationship, deleteRemoteRelationship, updateRemoteRelationship } from './remote-relationships.js';
import { addInheritedRole, dropInheritedRole } from './inherited-roles.js';
import { createPermission, dropPermission, setPermissionComment } from './permissions.js';
import { createRelationship, dropRelationship, renameRelationship, setRelationshipComment } from './relationships.js';

export const TABLE_OBJECT_COMMANDS: Record<string, Command> = {
  create_object_relationship: createRelationship('object'),
  create_array_relationship: createRelationship('array'),
  drop_relationship: dropRelationship,
  set_relationship_comment: setRelationshipComment,
  rename_relationship: renameRelationship,
  ...Object.fromEntries(PERMISSION_KINDS.flatMap((k) => [[`create_${k}_permission`, createPermission(k)], [`drop_${k}_permission`, dropPermission(k)]])),
  set_permission_comment: setPermissionComment,
  add_computed_field: addComputedField,
  drop_computed_field: dropComputedField,
  create_remote_relationship: createRemoteRelationship,
  update_remote_relationship: updateRemoteRelationship,
  delete_remote_relationship: deleteRemoteRelationship,
};

export const ROLE_COMMANDS: Record<string, Command> = {
  add_inherited_role: addInheritedRole,
  drop_inherited_role: dropInheritedRole,
};
