/**
 * An action's root field as a plan step (spec "Action"): the handler as configured, the
 * arguments as written (request variables read by the executor, so the plan does not depend on
 * their values), and the selection on the output type, which the executor checks the handler's
 * answer against and projects. A relationship of an output object type to a table becomes a
 * join step after this one (one SQL statement for every row: compile.ts `addJoins`), its key
 * fields selected under hidden keys.
 */
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  type FragmentDefinitionNode,
  type GraphQLOutputType,
  type ValueNode,
} from 'graphql';
import { actionHandler, type ActionMetadata } from '../metadata/actions.js';
import type { ActionOutputType, ActionRun } from '../protocol/plan.js';
import type { RoleSchema } from '../schema/build.js';
import { fieldKey } from '../schema/types.js';
import { collectFields, type CollectedField } from './collect.js';
import { RequestError } from '../errors/request.js';
import type { Inputs } from './inputs.js';
import type { SelectionCompiler } from './selection.js';

export interface ActionRequest {
  rs: RoleSchema;
  query: string;
  fragments: Map<string, FragmentDefinitionNode>;
  inputs: Inputs;
  selection: SelectionCompiler;
}

/** A written value, variables kept as `{"$variable": name}` (GraphQL input names cannot start with `$`). */
function inputValue(v: ValueNode): unknown {
  switch (v.kind) {
    case Kind.VARIABLE:
      return { $variable: v.name.value };
    case Kind.INT:
    case Kind.FLOAT:
      return Number(v.value);
    case Kind.STRING:
    case Kind.ENUM:
      return v.value;
    case Kind.BOOLEAN:
      return v.value;
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return v.values.map(inputValue);
    case Kind.OBJECT:
      return Object.fromEntries(v.fields.map((f) => [f.name.value, inputValue(f.value)]));
  }
}

export function actionRun(action: ActionMetadata, mode: ActionRun['mode'], f: CollectedField, type: GraphQLOutputType, req: ActionRequest, path: string): ActionRun {
  const input = Object.fromEntries((f.node.arguments ?? []).map((a) => [a.name.value, inputValue(a.value)]));
  return {
    kind: 'action',
    mode,
    action: action.name,
    handler: actionHandler(action.definition),
    input,
    requestQuery: req.query,
    output: outputType(type, f.selections, req, path),
    errorPath: path,
  };
}

/** The output type as the selection reads it; relationships become pending joins of `req.selection`. */
function outputType(type: GraphQLOutputType, sets: CollectedField['selections'], req: ActionRequest, path: string): ActionOutputType {
  if (isNonNullType(type)) return { kind: 'non_null', of: outputType(type.ofType, sets, req, path) };
  if (isListType(type)) return { kind: 'list', of: outputType(type.ofType, sets, req, path) };
  if (isEnumType(type)) return { kind: 'enum', name: type.name, values: type.getValues().map((v) => v.name) };
  if (!isObjectType(type)) return { kind: 'scalar', name: getNamedType(type).name };
  const fields = type.getFields();
  const isRelationship = (name: string) => req.rs.fields.get(fieldKey(type.name, name))?.kind === 'action_relationship';
  const selection: Extract<ActionOutputType, { kind: 'object' }>['selection'] = [];
  for (const cf of collectFields(type.name, sets, req.fragments, req.inputs, path)) {
    const p = `${path}.selectionSet.${cf.alias}`;
    if (cf.name === '__typename') {
      selection.push({ key: cf.alias, field: null, type: null });
      continue;
    }
    const info = req.rs.fields.get(fieldKey(type.name, cf.name));
    if (info?.kind === 'action_relationship') {
      const rel = info.relationship;
      const mapping = Object.entries(rel.field_mapping);
      const keys = mapping.map(([field]) => ({ parent: `__${cf.alias}_${field}`, child: field }));
      // The target as this role sees it (the field table may be another role's of the same shape).
      const target = req.rs.model.tables.get(info.target.key);
      if (!target) throw new RequestError(`field '${cf.name}' not found in type: '${type.name}'`, p);
      const to = req.selection.sourceJoin({ name: rel.name, targetKey: target.key, many: rel.type === 'array', mapping }, target, cf, p);
      req.selection.pendingJoins.push({ path: p, field: cf, keys, to });
      for (const k of keys) selection.push({ key: k.parent, field: k.child, type: outputType(getNullableType(fields[k.child]!.type), [], req, p) });
      continue;
    }
    const def = fields[cf.name];
    if (!def) throw new RequestError(`field '${cf.name}' not found in type: '${type.name}'`, p);
    selection.push({ key: cf.alias, field: cf.name, type: outputType(def.type, cf.selections, req, p) });
  }
  return { kind: 'object', name: type.name, known: Object.keys(fields).filter((n) => !isRelationship(n)), selection };
}
