/**
 * Which thread runs a file can be read from its path: each actor's folder holds its thread's
 * entry (`worker.ts`) and what only that thread loads, beside `client.ts`, the side of it the
 * thread that starts it runs (the main thread; the schema builder's thread for its compiler
 * pools). The main thread loads no worker-side module, and a client none of its own worker's.
 */
import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadedClosure, SRC } from '../support/source-imports.js';

const ACTORS = join(SRC, 'actors');
const actorFolders = readdirSync(ACTORS, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => join(ACTORS, d.name) + sep);

describe('thread ownership', () => {
  const workerSide = new Map(actorFolders.map((folder) => [folder, loadedClosure(join(folder, 'worker.ts')).filter((f) => f.startsWith(folder))]));
  const main = new Set(loadedClosure(join(SRC, 'main.ts')));
  const clientsLoadedBy = (loaded: Set<string>) => actorFolders.map((f) => join(f, 'client.ts')).filter((f) => loaded.has(f)).map((f) => relative(ACTORS, f));

  it('every actor has a worker.ts and a client.ts; the main thread starts all but the compiler pools, which the schema builder starts', () => {
    expect(actorFolders.map((f) => relative(ACTORS, f))).toEqual(['compiler', 'events', 'metadata', 'multiplexer', 'schema-builder']);
    expect(clientsLoadedBy(main)).toEqual(['events/client.ts', 'metadata/client.ts', 'multiplexer/client.ts', 'schema-builder/client.ts']);
    expect(clientsLoadedBy(new Set(loadedClosure(join(ACTORS, 'schema-builder', 'worker.ts'))))).toEqual(['compiler/client.ts']);
  });

  it('the main thread loads no module of an actor that its worker loads', () => {
    expect([...workerSide.values()].flat().filter((f) => main.has(f)).map((f) => relative(SRC, f))).toEqual([]);
  });

  it("a client loads none of its own actor's worker-side modules", () => {
    const loaded = actorFolders.flatMap((folder) => loadedClosure(join(folder, 'client.ts')).filter((f) => workerSide.get(folder)!.includes(f)).map((f) => `${relative(SRC, folder)}: ${relative(SRC, f)}`));
    expect(loaded).toEqual([]);
  });

  it('the front thread builds no schema and compiles nothing: it loads no module of schema/ or compiler/ (a plan comes whole from the schema builder)', () => {
    expect([...main].map((f) => relative(SRC, f)).filter((f) => /^(schema|compiler)[/\\]/.test(f))).toEqual([]);
  });
});
