/** Depth and node count of an operation (the API limits' measures), fragments and introspection included. */
import { Kind, parse, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { operationSize } from '../../src/compiler/operation-size.js';

function size(query: string) {
  const doc = parse(query);
  const op = doc.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  const fragments = new Map(doc.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]));
  return operationSize(op, fragments);
}

describe('operationSize', () => {
  it.each([
    // The well-known engine's examples: depth 1, and 3 nodes (author, articles, homepage_entries).
    ['{ viewer { name } }', 1, 1],
    ['{ viewer { ... on User { name } } }', 1, 1],
    ['{ viewer { albums { title } } }', 2, 2],
    ['{ author { name articles { id title } } homepage_entries { article_id } }', 2, 3],
    ['{ __typename id }', 0, 0],
    ['{ __schema { types { fields { name } } } author { id } }', 1, 1],
    ['{ a { ...f b: x { ...f } } } fragment f on T { c { d } }', 3, 4],
    ['{ a { ...f ...f } } fragment f on T { ...g ...g } fragment g on T { c { d { e } } }', 3, 9],
  ])('%s: depth %i, %i nodes', (query, depth, nodes) => {
    expect(size(query)).toEqual({ depth, nodes });
  });
});
