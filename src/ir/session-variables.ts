/** The session variables an IR value reads (a request must carry them): every `{kind: 'session', name}` in it. */
export function sessionVariablesOf(ir: unknown): string[] {
  const out = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (o.kind === 'session' && typeof o.name === 'string') out.add(o.name);
      Object.values(o).forEach(walk);
    }
  };
  walk(ir);
  return [...out].sort();
}
