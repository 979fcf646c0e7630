import type { PlanStep } from '../protocol/plan.js';

/**
 * How a plan's `data` is put together: `literals[0] + texts[steps[0]] + literals[1] + ...`, the
 * response steps' JSON text spliced unparsed between the literal text of their paths.
 */
interface Layout {
  literals: string[];
  steps: number[];
}

interface Node {
  children: Map<string, Node>;
  step: number | null;
}

/** Made once per plan (its steps array), not on every request. */
const layouts = new WeakMap<PlanStep[], Layout>();

function layoutOf(steps: PlanStep[]): Layout {
  const root: Node = { children: new Map(), step: null };
  steps.forEach((step, i) => {
    if (step.output.kind !== 'response') return;
    let node = root;
    for (const key of step.output.path) {
      let next = node.children.get(key);
      if (!next) node.children.set(key, (next = { children: new Map(), step: null }));
      node = next;
    }
    node.step = i;
  });
  const layout: Layout = { literals: [''], steps: [] };
  const literal = (text: string) => (layout.literals[layout.literals.length - 1] += text);
  const write = (n: Node): void => {
    if (n.step !== null) {
      layout.steps.push(n.step);
      layout.literals.push('');
      return;
    }
    literal('{');
    let first = true;
    for (const [key, child] of n.children) {
      literal(`${first ? '' : ','}${JSON.stringify(key)}:`);
      first = false;
      write(child);
    }
    literal('}');
  };
  write(root);
  return layout;
}

/** `{"a":<text>,"ns":{"b":<text>}}`: each response step's JSON text at its path, spliced unparsed. */
export function assembleData(steps: PlanStep[], texts: string[]): string {
  let layout = layouts.get(steps);
  if (layout === undefined) layouts.set(steps, (layout = layoutOf(steps)));
  let data = layout.literals[0]!;
  for (let i = 0; i < layout.steps.length; i++) data += texts[layout.steps[i]!]! + layout.literals[i + 1]!;
  return data;
}
