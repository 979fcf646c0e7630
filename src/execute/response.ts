import type { PlanStep } from '../protocol/plan.js';

interface Node {
  children: Map<string, Node>;
  text: string | null;
}

/** `{"a":<text>,"ns":{"b":<text>}}`: each response step's JSON text at its path, spliced unparsed. */
export function assembleData(steps: PlanStep[], texts: string[]): string {
  const root: Node = { children: new Map(), text: null };
  steps.forEach((step, i) => {
    if (step.output.kind !== 'response') return;
    let node = root;
    for (const key of step.output.path) {
      let next = node.children.get(key);
      if (!next) node.children.set(key, (next = { children: new Map(), text: null }));
      node = next;
    }
    node.text = texts[i]!;
  });
  const write = (n: Node): string => n.text ?? `{${[...n.children].map(([k, c]) => `${JSON.stringify(k)}:${write(c)}`).join(',')}}`;
  return write(root);
}
