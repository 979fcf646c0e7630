/**
 * Actions and custom types checked against each other, the sources and the environment (spec
 * "Action"; the well-known engine's schema cache): an action whose argument or output type is
 * not defined (or of the wrong kind), or whose handler or header reads an environment variable
 * that is not set, is inconsistent; so are the custom types when a relationship names a table
 * that is not tracked or a column it does not have. Run by the metadata actor
 * (resolveDocument, metadata/resolve.ts); the schema builder leaves out what the snapshot lists.
 */
import type { Json } from '../../util/decode.js';
import { actions, setActions, type ActionDefinition, type ActionMetadata } from '../actions.js';
import { databaseScalars, fieldTypeProblem, nameableTypes, setCustomTypes, storedCustomTypes, typeKinds, typeProblem, type CustomTypes, type TypeKind } from '../custom-types.js';
import { showTable } from '../names.js';
import type { Metadata } from '../types.js';
import { fillUrlTemplate } from '../url-template.js';
import type { Inconsistency, ResolvedMetadata } from './types.js';

export const actionObjectName = (name: string) => `action ${name}`;
export const CUSTOM_TYPES_OBJECT = 'custom_types';

/** Why an action's types do not fit the custom types, with the JSON path under its definition; null when they do. */
export function actionTypeProblem(d: ActionDefinition, kinds: ReadonlyMap<string, TypeKind>): { path: string; message: string } | null {
  for (const [i, a] of (d.arguments ?? []).entries()) {
    const problem = typeProblem(kinds, a.type, ['scalar', 'enum', 'input_object'], `argument ${JSON.stringify(a.name)}`);
    if (problem) return { path: `.arguments[${i}].type`, message: problem };
  }
  const problem = typeProblem(kinds, d.output_type, ['scalar', 'enum', 'object'], 'the output');
  return problem ? { path: '.output_type', message: problem } : null;
}

/** Why the action cannot be called as configured (environment), or null. */
export function actionEnvironmentProblem(d: ActionDefinition, env: NodeJS.ProcessEnv): string | null {
  try {
    fillUrlTemplate(d.handler, env);
  } catch (e) {
    return `invalid handler: ${(e as Error).message}`;
  }
  const h = (d.headers ?? []).find((x) => x.value_from_env !== undefined && env[x.value_from_env] === undefined);
  return h ? `the environment variable ${JSON.stringify(h.value_from_env)} of header ${JSON.stringify(h.name)} is not set` : null;
}

/** Why a relationship of the custom types cannot join, or null. */
function relationshipProblem(ct: CustomTypes, resolved: ResolvedMetadata): string | null {
  for (const o of ct.objects ?? []) {
    for (const rel of o.relationships ?? []) {
      const source = rel.source ?? 'default';
      const t = resolved.sources.get(source)?.tables.get(`${rel.remote_table.schema}.${rel.remote_table.name}`);
      const at = `relationship ${JSON.stringify(rel.name)} of object type ${JSON.stringify(o.name)}`;
      if (!t) return `the ${at} names table ${JSON.stringify(showTable(rel.remote_table))}, which is not tracked in source ${JSON.stringify(source)}`;
      const column = Object.values(rel.field_mapping).find((c) => !t.columns.has(c));
      if (column !== undefined) return `the ${at}: column ${JSON.stringify(column)} does not exist in table ${JSON.stringify(showTable(rel.remote_table))}`;
    }
  }
  return null;
}

export function actionInconsistencies(m: Metadata, resolved: ResolvedMetadata, env: NodeJS.ProcessEnv): Inconsistency[] {
  const out: Inconsistency[] = [];
  const ct = storedCustomTypes(m);
  const relProblem = relationshipProblem(ct, resolved);
  if (relProblem) {
    out.push({
      object: { type: 'custom_types', name: CUSTOM_TYPES_OBJECT, definition: ct as unknown as Json, reason: `Inconsistent object: ${relProblem}` },
      remove: (d) => setCustomTypes(d, { ...storedCustomTypes(d), objects: (storedCustomTypes(d).objects ?? []).map(({ relationships: _, ...o }) => o) }),
    });
  }
  const kinds = nameableTypes(ct, databaseScalars([...resolved.sources.values()].map((s) => s.introspection)));
  const fieldProblem = fieldTypeProblem(ct, kinds);
  if (fieldProblem) {
    out.push({
      object: { type: 'custom_types', name: CUSTOM_TYPES_OBJECT, definition: ct as unknown as Json, reason: `Inconsistent object: ${fieldProblem.message}` },
      remove: (d) => setCustomTypes(d, {}),
    });
  }
  for (const a of actions(m)) {
    const problem = actionTypeProblem(a.definition, kinds)?.message ?? actionEnvironmentProblem(a.definition, env);
    if (problem) out.push(actionInconsistency(a, problem));
  }
  return out;
}

function actionInconsistency(a: ActionMetadata, reason: string): Inconsistency {
  return {
    object: { type: 'action', name: actionObjectName(a.name), definition: a as unknown as Json, reason: `Inconsistent object: in action ${JSON.stringify(a.name)}: ${reason}` },
    remove: (d) => setActions(d, actions(d).filter((x) => x.name !== a.name)),
  };
}

/** What the sources' part of the schema already uses: root fields, and types (a scalar or another kind). */
export interface SchemaNames {
  rootField(root: 'query' | 'mutation', name: string): boolean;
  type(name: string): 'scalar' | 'other' | undefined;
}

/**
 * Names the schema already has: a custom type named like one of its types (a scalar may share
 * a scalar's name: it is the same scalar) makes the custom types inconsistent; an action whose
 * root field a remote schema has (a source's is a root-field conflict, resolve/root-fields.ts),
 * or whose asynchronous result type is taken, the action.
 */
export function actionNameClashes(m: Metadata, taken: SchemaNames): Inconsistency[] {
  const out: Inconsistency[] = [];
  const ct = storedCustomTypes(m);
  const kinds = typeKinds(ct);
  for (const [name, kind] of kinds) {
    const existing = taken.type(name);
    if (existing && !(kind === 'scalar' && existing === 'scalar')) {
      out.push({
        object: { type: 'custom_types', name: CUSTOM_TYPES_OBJECT, definition: ct as unknown as Json, reason: `Inconsistent object: the custom type ${JSON.stringify(name)} clashes with a type of the same name in the schema` },
        remove: (d) => setCustomTypes(d, {}),
      });
      break;
    }
  }
  for (const a of actions(m)) {
    const d = a.definition;
    const roots: ('query' | 'mutation')[] = d.kind === 'asynchronous' ? ['mutation', 'query'] : [d.type];
    const root = roots.find((r) => taken.rootField(r, a.name));
    if (root) out.push(actionInconsistency(a, `the ${root} root field ${JSON.stringify(a.name)} already exists`));
    else if (d.kind === 'asynchronous' && (taken.type(a.name) || kinds.has(a.name))) out.push(actionInconsistency(a, `the type ${JSON.stringify(a.name)} of its result already exists`));
  }
  return out;
}
