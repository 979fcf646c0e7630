/**
 * Introspection root fields (`__schema`, `__type`), answered by graphql-js over the role's
 * schema, with their lists in the well-known engine's order: it sorts by name the schema's
 * `types`, a type's `fields`, `interfaces`, `possibleTypes`, `enumValues` and `inputFields`,
 * and a field's `args`, whatever order they were declared in (`__TypeKind`'s values come
 * `ENUM, INPUT_OBJECT, …`); a directive's `args` and the `directives` keep theirs.
 * graphql-js answers in declared order, so each such list is asked for its elements' names
 * under a key of ours, sorted by it, and the key taken out again.
 */
import { execute, Kind, TypeInfo, visit, visitWithTypeInfo, type DocumentNode, type FieldNode, type GraphQLError, type OperationDefinitionNode } from 'graphql';
import type { RoleSchema } from '../schema/build.js';
import { RequestError } from '../errors/request.js';
import type { CollectedField } from './collect.js';
import { VarRef, type Inputs } from './inputs.js';

const SORTED_LISTS: Readonly<Record<string, readonly string[]>> = {
  __Schema: ['types'],
  __Type: ['fields', 'interfaces', 'possibleTypes', 'enumValues', 'inputFields'],
  __Field: ['args'],
};

/** The response key of the added `name` selection (a name a client would not choose; removed from the answer). */
const SORT_KEY = '__service_sort_name';

const SORT_FIELD: FieldNode = { kind: Kind.FIELD, alias: { kind: Kind.NAME, value: SORT_KEY }, name: { kind: Kind.NAME, value: 'name' } };

/** The document with a `name` selection under `SORT_KEY` in every list field the well-known engine sorts. */
function withSortKeys(rs: RoleSchema, doc: DocumentNode): DocumentNode {
  const typeInfo = new TypeInfo(rs.schema);
  return visit(
    doc,
    visitWithTypeInfo(typeInfo, {
      Field: {
        // On leave the parent type is still the one holding the field.
        leave(node) {
          const parent = typeInfo.getParentType();
          if (!node.selectionSet || !parent || !SORTED_LISTS[parent.name]?.includes(node.name.value)) return undefined;
          return { ...node, selectionSet: { ...node.selectionSet, selections: [...node.selectionSet.selections, SORT_FIELD] } };
        },
      },
    }),
  );
}

/** Sorts the lists whose elements carry `SORT_KEY` by it (code point order, as names compare upstream) and removes it. */
function sortMarked(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(sortMarked);
    if (!items.every((x) => x !== null && typeof x === 'object' && SORT_KEY in x)) return items;
    const keyed = items.map((x) => {
      const { [SORT_KEY]: key, ...rest } = x as Record<string, unknown>;
      return { key: String(key), rest };
    });
    return keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).map((x) => x.rest);
  }
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, sortMarked(v)]));
}

/** Runs an introspection root field against the role's schema, as JSON text. */
export function introspect(rs: RoleSchema, doc: DocumentNode, op: OperationDefinitionNode, f: CollectedField, inputs: Inputs): string {
  const single: DocumentNode = {
    kind: Kind.DOCUMENT,
    definitions: [{ ...op, selectionSet: { kind: Kind.SELECTION_SET, selections: [{ ...f.node, selectionSet: f.selections.length ? { kind: Kind.SELECTION_SET, selections: f.selections.flatMap((s) => s.selections) } : undefined }] } }, ...doc.definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION)],
  };
  // Everything an introspection field reads is compiled in.
  for (const name of Object.keys(inputs.variables)) inputs.resolve(new VarRef(name));
  const result = execute({ schema: rs.schema, document: withSortKeys(rs, single), variableValues: inputs.variables }) as { data?: Record<string, unknown> | null; errors?: readonly GraphQLError[] };
  if (result.errors?.length) throw new RequestError(result.errors[0]!.message, '$');
  return JSON.stringify(sortMarked(result.data?.[f.alias] ?? null));
}
