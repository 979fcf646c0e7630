/** Field collection (GraphQL spec §6.3.2): fragments flattened, @skip/@include applied, fields merged by response key. */
import { Kind, type FieldNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';
import { RequestError } from '../errors/request.js';
import type { Inputs } from './inputs.js';

export interface CollectedField {
  alias: string;
  name: string;
  node: FieldNode;
  /** Sub-selections of every occurrence of this response key. */
  selections: SelectionSetNode[];
}

function included(node: { directives?: readonly import('graphql').DirectiveNode[] }, inputs: Inputs, path: string): boolean {
  for (const d of node.directives ?? []) {
    if (d.name.value !== 'skip' && d.name.value !== 'include') continue;
    const arg = d.arguments?.find((a) => a.name.value === 'if');
    if (!arg) throw new RequestError(`directive "${d.name.value}" needs the argument "if"`, path);
    const v = inputs.resolve(inputs.tree(arg.value));
    if (typeof v !== 'boolean') throw new RequestError(`expected a boolean for the argument "if" of directive "${d.name.value}"`, path);
    if (d.name.value === 'skip' ? v : !v) return false;
  }
  return true;
}

export function collectFields(
  typeName: string,
  sets: readonly SelectionSetNode[],
  fragments: Map<string, FragmentDefinitionNode>,
  inputs: Inputs,
  path: string,
): CollectedField[] {
  const out = new Map<string, CollectedField>();
  const visit = (set: SelectionSetNode, visited: Set<string>) => {
    for (const sel of set.selections) {
      if (!included(sel, inputs, path)) continue;
      if (sel.kind === Kind.FIELD) {
        const alias = sel.alias?.value ?? sel.name.value;
        const existing = out.get(alias);
        if (existing) {
          if (existing.name !== sel.name.value) throw new RequestError(`cannot merge different fields with the same alias ${JSON.stringify(alias)}`, `${path}.selectionSet.${alias}`);
          if (sel.selectionSet) existing.selections.push(sel.selectionSet);
        } else {
          out.set(alias, { alias, name: sel.name.value, node: sel, selections: sel.selectionSet ? [sel.selectionSet] : [] });
        }
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        if (sel.typeCondition && sel.typeCondition.name.value !== typeName) continue;
        visit(sel.selectionSet, visited);
      } else {
        const name = sel.name.value;
        if (visited.has(name)) continue;
        const frag = fragments.get(name);
        if (!frag) throw new RequestError(`fragment ${JSON.stringify(name)} is not defined`, path);
        if (frag.typeCondition.name.value !== typeName) continue;
        visit(frag.selectionSet, new Set([...visited, name]));
      }
    }
  };
  for (const s of sets) visit(s, new Set());
  return [...out.values()];
}
