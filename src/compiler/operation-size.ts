/**
 * The depth and node count of an operation, as the well-known engine's API limits measure
 * them: a node is a field with a selection set, and the depth is the most such fields nested
 * on one path (`viewer { name }` is 1 deep, 1 node). Fragments count where they are spread, as
 * if written there (an inline fragment adds no level). Introspection fields (`__schema`,
 * `__type`) count for neither: the well-known engine exempts introspection from depth limits, and
 * their answer is computed once, at compile time. Properties of the document: computed here,
 * once per plan, and carried in it (`Plan.size`).
 */
import { Kind, type FragmentDefinitionNode, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';

export interface OperationSize {
  depth: number;
  nodes: number;
}

const INTROSPECTION = new Set(['__schema', '__type']);

export function operationSize(op: OperationDefinitionNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>): OperationSize {
  // Each fragment measured once: a fragment spread many times (or nested spreads) costs no more to count.
  const measured = new Map<string, OperationSize>();
  const measure = (set: SelectionSetNode): OperationSize => {
    let depth = 0;
    let nodes = 0;
    for (const s of set.selections) {
      let inner: OperationSize;
      if (s.kind === Kind.FIELD) {
        if (!s.selectionSet || INTROSPECTION.has(s.name.value)) continue;
        const below = measure(s.selectionSet);
        inner = { depth: below.depth + 1, nodes: below.nodes + 1 };
      } else if (s.kind === Kind.INLINE_FRAGMENT) inner = measure(s.selectionSet);
      else {
        const name = s.name.value;
        let known = measured.get(name);
        const fragment = fragments.get(name);
        if (!known && fragment) measured.set(name, (known = measure(fragment.selectionSet)));
        if (!known) continue;
        inner = known;
      }
      depth = Math.max(depth, inner.depth);
      nodes += inner.nodes;
    }
    return { depth, nodes };
  };
  return measure(op.selectionSet);
}
