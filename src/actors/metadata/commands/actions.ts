/**
 * create_action, update_action, drop_action, create_action_permission,
 * drop_action_permission, set_custom_types (spec "Actions"). A definition whose types the custom
 * types do not define is refused here with the path of the type; what depends on the sources or
 * the environment is resolution's, and a change that leaves an action or the custom types
 * inconsistent fails with nothing stored.
 */
import { alreadyExists, badRequest, notExists } from '../../../errors/admin.js';
import { bool, nonEmptyStr, ObjectReader, strOrNull } from '../../../util/decode.js';
import { ACTION_LOG_STATEMENTS } from '../../../db/action-log.js';
import { actionDefinition, actionEntry, actions, findAction, setActions, type ActionMetadata } from '../../../metadata/actions.js';
import { customTypes, databaseScalars, fieldTypeProblem, nameableTypes, setCustomTypes, storedCustomTypes, type CustomTypes } from '../../../metadata/custom-types.js';
import { actionTypeProblem } from '../../../metadata/resolve/actions.js';
import { SUCCESS, type Command, type CommandContext } from './context.js';

/** Every type an action may name in the unit of work's metadata: the custom types and its sources' scalars. */
const nameableIn = (ctx: CommandContext, ct: CustomTypes) => nameableTypes(ct, databaseScalars(ctx.metadata.sources.map((s) => ctx.introspection(s.name))));

function checkTypes(ctx: CommandContext, a: ActionMetadata, path: string): void {
  const problem = actionTypeProblem(a.definition, nameableIn(ctx, storedCustomTypes(ctx.metadata)));
  if (problem) throw badRequest('not-exists', problem.message, `${path}.definition${problem.path}`);
}

export const createAction: Command = (ctx, args, path) => {
  const a = actionEntry(args, path, false);
  if (actions(ctx.metadata).some((x) => x.name === a.name)) throw alreadyExists(`action ${JSON.stringify(a.name)} already exists`, `${path}.name`);
  checkTypes(ctx, a, path);
  setActions(ctx.metadata, [...actions(ctx.metadata), a]);
  return { metadata: ctx.metadata, response: SUCCESS };
};

/** The definition (and comment) replaced; the permissions stay (spec "Action" lifecycle). */
export const updateAction: Command = (ctx, args, path) => {
  const r = ObjectReader.of(args, path);
  const name = r.required('name', nonEmptyStr);
  const definition = r.required('definition', actionDefinition);
  const comment = r.optional('comment', strOrNull);
  r.done();
  const old = findAction(ctx.metadata, name, `${path}.name`);
  const next: ActionMetadata = { name, definition, ...(comment !== undefined ? { comment } : old.comment !== undefined ? { comment: old.comment } : {}), ...(old.permissions ? { permissions: old.permissions } : {}) };
  checkTypes(ctx, next, path);
  setActions(ctx.metadata, actions(ctx.metadata).map((x) => (x.name === name ? next : x)));
  return { metadata: ctx.metadata, response: SUCCESS };
};

/** `clear_data` (default true, spec "Defaults summary"): the asynchronous invocations go too. */
export const dropAction: Command = async (ctx, args, path) => {
  const r = ObjectReader.of(args, path);
  const name = r.required('name', nonEmptyStr);
  const clear = r.withDefault('clear_data', bool, true);
  r.done();
  findAction(ctx.metadata, name, `${path}.name`);
  setActions(ctx.metadata, actions(ctx.metadata).filter((x) => x.name !== name));
  if (clear) await ctx.catalogQuery(ACTION_LOG_STATEMENTS.clear, [name]);
  return { metadata: ctx.metadata, response: SUCCESS };
};

function permissionArgs(args: unknown, path: string, withComment: boolean): { action: string; role: string; comment?: string } {
  const r = ObjectReader.of(args, path);
  // The reference lists drop_action_permission's as `name` (spec "Actions").
  const action = r.has('action') || withComment ? r.required('action', nonEmptyStr) : r.required('name', nonEmptyStr);
  const role = r.required('role', nonEmptyStr);
  const comment = withComment ? r.optional('comment', strOrNull) : undefined;
  r.ignore('definition');
  r.done();
  if (role === 'admin') throw badRequest('invalid-params', 'admin may call every action: no permission is needed', `${path}.role`);
  return { action, role, ...(comment !== undefined ? { comment } : {}) };
}

const actionPath = (args: unknown, path: string) => `${path}.${args !== null && typeof args === 'object' && 'action' in args ? 'action' : 'name'}`;

export const createActionPermission: Command = (ctx, args, path) => {
  const { action, role, comment } = permissionArgs(args, path, true);
  const a = findAction(ctx.metadata, action, `${path}.action`);
  if (a.permissions?.some((p) => p.role === role)) throw alreadyExists(`permission for role ${JSON.stringify(role)} is already defined on action ${JSON.stringify(action)}`, `${path}.role`);
  const next = { ...a, permissions: [...(a.permissions ?? []), { role, ...(comment !== undefined ? { comment } : {}) }] };
  setActions(ctx.metadata, actions(ctx.metadata).map((x) => (x.name === action ? next : x)));
  return { metadata: ctx.metadata, response: SUCCESS };
};

export const dropActionPermission: Command = (ctx, args, path) => {
  const { action, role } = permissionArgs(args, path, false);
  const a = findAction(ctx.metadata, action, actionPath(args, path));
  if (!a.permissions?.some((p) => p.role === role)) throw notExists(`permission for role ${JSON.stringify(role)} is not defined on action ${JSON.stringify(action)}`, `${path}.role`);
  const rest = a.permissions.filter((p) => p.role !== role);
  const { permissions: _, ...bare } = a;
  setActions(ctx.metadata, actions(ctx.metadata).map((x) => (x.name === action ? (rest.length ? { ...bare, permissions: rest } : bare) : x)));
  return { metadata: ctx.metadata, response: SUCCESS };
};

/** Replaces every custom type; an action left with a type that no longer exists fails it (refused, path of that action). */
export const setCustomTypesCommand: Command = (ctx, args, path) => {
  const ct: CustomTypes = customTypes(args, path);
  const kinds = nameableIn(ctx, ct);
  const fieldProblem = fieldTypeProblem(ct, kinds);
  if (fieldProblem) throw badRequest('not-exists', fieldProblem.message, `${path}${fieldProblem.path}`);
  for (const [i, a] of actions(ctx.metadata).entries()) {
    const problem = actionTypeProblem(a.definition, kinds);
    if (problem) throw badRequest('not-exists', `${problem.message} (used by action ${JSON.stringify(a.name)})`, path, { action: a.name, path: `$.actions[${i}].definition${problem.path}` });
  }
  setCustomTypes(ctx.metadata, ct);
  return { metadata: ctx.metadata, response: SUCCESS };
};
