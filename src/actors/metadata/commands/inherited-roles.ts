/** add_inherited_role, drop_inherited_role. */
import { notExists } from '../../../errors/admin.js';
import { nonEmptyStr, ObjectReader } from '../../../util/decode.js';
import { checkRoleCycles, inheritedRole, inheritedRoles, setInheritedRoles } from '../../../metadata/inherited-roles.js';
import { inheritedRoleObjectName } from '../../../metadata/resolve/inherited-roles.js';
import { SUCCESS, type Command } from './context.js';
import { changeOutcome } from './outcomes.js';

/** An existing inherited role of the same name is replaced, as in the well-known engine. */
export const addInheritedRole: Command = (ctx, args, path) => {
  const role = inheritedRole(args, path);
  const roles = [...inheritedRoles(ctx.metadata).filter((r) => r.role_name !== role.role_name), role];
  checkRoleCycles(roles, path);
  setInheritedRoles(ctx.metadata, roles);
  return { metadata: ctx.metadata, response: SUCCESS, ...changeOutcome(inheritedRoleObjectName(role.role_name), path) };
};

export const dropInheritedRole: Command = (ctx, args, path) => {
  const r = ObjectReader.of(args, path);
  const name = r.required('role_name', nonEmptyStr);
  r.done();
  const roles = inheritedRoles(ctx.metadata);
  if (!roles.some((x) => x.role_name === name)) throw notExists(`${JSON.stringify(name)} inherited role doesn't exist`, r.at('role_name'));
  setInheritedRoles(ctx.metadata, roles.filter((x) => x.role_name !== name));
  return { metadata: ctx.metadata, response: SUCCESS, ...changeOutcome(inheritedRoleObjectName(name), path) };
};
