/**
 * A fragment spread within itself, reported as the well-known engine does: the message names the
 * fragments of the cycle and the path leads through the fields and spreads to the selection set
 * that spreads the fragment again (`$.selectionSet.author.selectionSet.authorFragment
 * .selectionSet.articles.selectionSet.articleFragment.selectionSet.author.selectionSet`).
 * graphql-js finds the cycle too, but names no path inside a fragment.
 */
import { Kind, type DocumentNode, type FragmentDefinitionNode, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import { RequestError } from '../errors/request.js';

export function fragmentCycle(doc: DocumentNode, op: OperationDefinitionNode): RequestError | null {
  const fragments = new Map(doc.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]));
  /** Fragments whose spreads were all followed without a cycle: not followed again. */
  const acyclic = new Set<string>();
  const spreading: string[] = [];
  const walk = (set: SelectionSetNode, path: string): RequestError | null => {
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        const found = sel.selectionSet ? walk(sel.selectionSet, `${path}.selectionSet.${sel.alias?.value ?? sel.name.value}`) : null;
        if (found) return found;
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        const found = walk(sel.selectionSet, path);
        if (found) return found;
      } else {
        const name = sel.name.value;
        const at = spreading.indexOf(name);
        if (at >= 0) return new RequestError(`cannot spread fragment ${JSON.stringify(name)} within itself via ${[...spreading.slice(at + 1), name].join(',')}`, `${path}.selectionSet`);
        const fragment = fragments.get(name);
        if (!fragment || acyclic.has(name)) continue;
        spreading.push(name);
        const found = walk(fragment.selectionSet, `${path}.selectionSet.${name}`);
        spreading.pop();
        if (found) return found;
        acyclic.add(name);
      }
    }
    return null;
  };
  return walk(op.selectionSet, '$');
}
