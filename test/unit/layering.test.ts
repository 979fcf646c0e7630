/**
 * The layout's dependencies (docs/architecture.md, "Layers"): no import cycle between files,
 * types included (a cycle that cannot be avoided would say so in its file's header and be listed
 * here); and between the folders of `src/` (the files at its top are layers of their own: `main`,
 * `config`, `log`) only the edges listed below. A new edge is a decision: add it here with the
 * change that needs it. The folder cycles the list still holds are the layout's known debts
 * (`FOLDER_CYCLES`); removing an edge that breaks one means removing it from that list too.
 */
import { relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, sourceFiles, SRC } from '../support/source-imports.js';

const ALLOWED: Record<string, string[]> = {
  actors: ['backends', 'compiler', 'config', 'db', 'errors', 'execute', 'live', 'log', 'metadata', 'outgoing', 'protocol', 'remote', 'schema', 'templates', 'util'],
  auth: ['config', 'errors', 'log', 'outgoing', 'util'],
  backends: ['db', 'errors', 'ir', 'log', 'metadata', 'sql', 'util'],
  compiler: ['errors', 'ir', 'metadata', 'protocol', 'schema', 'util'],
  config: ['auth', 'errors', 'http', 'log'],
  db: ['backends', 'log'],
  errors: ['log'],
  execute: ['backends', 'errors', 'log', 'outgoing', 'protocol', 'remote', 'sql', 'util'],
  graphql: ['actors', 'auth', 'errors', 'execute', 'log', 'metadata', 'outgoing', 'protocol', 'remote', 'util'],
  http: ['auth', 'config', 'errors', 'graphql', 'log', 'protocol'],
  ir: ['metadata', 'util'],
  live: ['backends', 'errors', 'execute', 'log', 'metadata', 'protocol', 'util'],
  main: ['actors', 'auth', 'backends', 'config', 'db', 'graphql', 'http', 'log', 'outgoing', 'protocol', 'util'],
  metadata: ['backends', 'db', 'errors', 'ir', 'protocol', 'templates', 'util'],
  outgoing: ['metadata', 'protocol', 'templates'],
  protocol: ['backends', 'config', 'errors', 'ir', 'log', 'metadata', 'sql', 'util'],
  remote: ['log', 'metadata', 'outgoing', 'protocol'],
  schema: ['backends', 'db', 'ir', 'metadata', 'protocol', 'util'],
  sql: ['ir', 'metadata'],
  templates: ['errors', 'util'],
  util: ['errors'],
};

/** The folders that still depend on each other, each group sorted (strongly connected components of ALLOWED). */
const FOLDER_CYCLES = [
  [
    'actors',
    'auth',
    'backends',
    'compiler',
    'config',
    'db',
    'execute',
    'graphql',
    'http',
    'ir',
    'live',
    'metadata',
    'outgoing',
    'protocol',
    'remote',
    'schema',
    'sql',
  ],
];

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

  it('lists only edges that exist, and the folder cycles they make', () => {
    const used = new Set(files.flatMap((f) => (imports.get(f) ?? []).map((i) => `${layerOf(f)} -> ${layerOf(i)}`)));
    const stale = Object.entries(ALLOWED).flatMap(([from, to]) => to.map((t) => `${from} -> ${t}`).filter((e) => !used.has(e)));
    expect(stale).toEqual([]);
    expect(cycles(Object.keys(ALLOWED), (n) => ALLOWED[n] ?? [])).toEqual(FOLDER_CYCLES);
  });
});
