/**
 * The layout's dependencies (docs/architecture.md, "Layers"): no import cycle between files,
 * types included (a cycle that cannot be avoided would say so in its file's header and be listed
 * here); between the folders of `src/` (the files at its top are layers of their own: `main`,
 * `log`) only the edges listed below, and no cycle among them: the folders form layers, each
 * depending only on those under it. A new edge is a decision: add it here with the change that
 * needs it.
 */
import { relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, sourceFiles, SRC } from '../support/source-imports.js';

const ALLOWED: Record<string, string[]> = {
  actors: ['backends', 'catalog', 'compiler', 'config', 'db', 'errors', 'execute', 'live', 'log', 'metadata', 'observability', 'outgoing', 'protocol', 'remote', 'schema', 'templates', 'util'],
  auth: ['errors', 'log', 'observability', 'outgoing', 'util'],
  cache: ['config', 'live', 'log', 'outgoing', 'protocol', 'redis', 'util'],
  backends: ['catalog', 'db', 'errors', 'ir', 'log', 'metadata', 'sql', 'util'],
  compiler: ['backends', 'catalog', 'errors', 'ir', 'metadata', 'protocol', 'schema', 'util'],
  config: ['auth', 'errors', 'log'],
  db: ['log', 'metadata'],
  errors: ['log'],
  execute: ['backends', 'errors', 'log', 'observability', 'outgoing', 'protocol', 'remote', 'sql', 'util'],
  graphql: ['actors', 'auth', 'cache', 'errors', 'execute', 'log', 'metadata', 'observability', 'outgoing', 'protocol', 'remote', 'util'],
  http: ['auth', 'config', 'errors', 'graphql', 'log', 'observability', 'protocol'],
  ir: ['catalog', 'util'],
  lifecycle: ['log'],
  live: ['backends', 'catalog', 'errors', 'execute', 'log', 'observability', 'protocol', 'util'],
  main: ['actors', 'auth', 'backends', 'cache', 'config', 'db', 'graphql', 'http', 'lifecycle', 'log', 'observability', 'outgoing', 'redis', 'util'],
  observability: ['log', 'metadata', 'protocol'],
  metadata: ['catalog', 'errors', 'ir', 'templates', 'util'],
  outgoing: ['metadata', 'observability', 'templates'],
  protocol: ['backends', 'catalog', 'errors', 'ir', 'log', 'metadata', 'sql', 'util'],
  remote: ['log', 'metadata', 'outgoing', 'protocol'],
  redis: ['config', 'log'],
  schema: ['backends', 'catalog', 'db', 'ir', 'metadata', 'protocol', 'util'],
  sql: ['catalog', 'ir'],
  templates: ['errors', 'util'],
  util: ['errors'],
};

/** Groups of nodes that reach each other (Tarjan), each sorted, groups of one left out. */
function cycles(nodes: readonly string[], edges: (n: string) => readonly string[]): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of edges(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1) found.push(group.sort());
  };
  for (const n of nodes) if (!index.has(n)) visit(n);
  return found.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** A file's layer: its first folder under src/, or its own name at the top. */
const layerOf = (file: string) => relative(SRC, file).split(sep)[0]!.replace(/\.ts$/, '');

describe('layering', () => {
  const files = sourceFiles();
  const imports = new Map(files.map((f) => [f, importsOf(f).filter((i) => i.startsWith(SRC + sep))]));

  it('finds the modules it checks', () => {
    expect(files.length).toBeGreaterThan(300);
  });

  it('has no import cycle between files', () => {
    const found = cycles(files, (f) => imports.get(f) ?? []).map((group) => group.map((f) => relative(SRC, f)));
    expect(found).toEqual([]);
  });

  it('has no dependency between folders but those listed', () => {
    const unlisted = files.flatMap((f) =>
      (imports.get(f) ?? [])
        .filter((i) => layerOf(i) !== layerOf(f) && !(ALLOWED[layerOf(f)] ?? []).includes(layerOf(i)))
        .map((i) => `${relative(SRC, f)} imports ${relative(SRC, i)} (${layerOf(f)} -> ${layerOf(i)})`),
    );
    expect(unlisted).toEqual([]);
  });

  it('lists only edges that exist, and they make no cycle between folders', () => {
    const used = new Set(files.flatMap((f) => (imports.get(f) ?? []).map((i) => `${layerOf(f)} -> ${layerOf(i)}`)));
    const stale = Object.entries(ALLOWED).flatMap(([from, to]) => to.map((t) => `${from} -> ${t}`).filter((e) => !used.has(e)));
    expect(stale).toEqual([]);
    expect(cycles(Object.keys(ALLOWED), (n) => ALLOWED[n] ?? [])).toEqual([]);
  });
});
