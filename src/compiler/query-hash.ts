/**
 * The parameterized query hash of an operation (the well-known engine's
 * `parameterized_query_hash`): the SHA-1 of its selection with every leaf value left out, so
 * requests differing only in their values (literal or variable) share it. Upstream also resolves
 * variables holding whole input objects before hashing; here such a variable counts as a leaf
 * (docs/behaviour.md "Logs").
 */
import { createHash } from 'node:crypto';
import { Kind, print, visit, type ASTNode, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';

const LEAVES = new Set<string>([Kind.VARIABLE, Kind.INT, Kind.FLOAT, Kind.STRING, Kind.BOOLEAN, Kind.NULL, Kind.ENUM]);
const BLANK = { kind: Kind.NULL } as const;

const withoutLeaves = (node: ASTNode): string => print(visit(node, { enter: (n) => (LEAVES.has(n.kind) ? BLANK : undefined) }));

export function parameterizedQueryHash(op: OperationDefinitionNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>): string {
  const hash = createHash('sha1').update(withoutLeaves(op.selectionSet));
  for (const name of [...fragments.keys()].sort()) hash.update(withoutLeaves(fragments.get(name)!));
  return hash.digest('hex');
}
