/**
 * Backends stay behind their faces (`backends/faces/`, put together in `backends/backend.ts`):
 * outside `src/backends/` (and `main.ts`, which boots everything) no module imports a backend's
 * folder, and no backend imports another's (the registry composes citus on pg); a thread loads
 * only the faces it uses.
 */
import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, loadedClosure, sourceFiles, SRC } from '../support/source-imports.js';

const BACKENDS = join(SRC, 'backends');

/** The backend folder (`pg`, `mssql`...) a path lies in, or null outside backend folders. */
function backendFolder(path: string): string | null {
  const rel = relative(BACKENDS, path);
  if (rel.startsWith('..')) return null;
  const parts = rel.split(sep);
  // `faces/` holds the interfaces every backend implements, not a backend.
  return parts.length > 1 && parts[0] !== 'faces' ? parts[0]! : null;
}

describe('backend boundary', () => {
  const files = sourceFiles();

  it('finds the modules it checks', () => {
    expect(files.some((f) => backendFolder(f) === 'pg')).toBe(true);
    expect(files.length).toBeGreaterThan(100);
  });

  it('no module outside src/backends/ and main.ts imports a backend folder', () => {
    const offending = files
      .filter((f) => !f.startsWith(BACKENDS + sep) && f !== join(SRC, 'main.ts'))
      .flatMap((f) => importsOf(f).filter((i) => backendFolder(i) !== null).map((i) => `${relative(SRC, f)} imports ${relative(SRC, i)}`));
    expect(offending).toEqual([]);
  });

  it('no backend imports another backend folder', () => {
    const offending = files
      .filter((f) => backendFolder(f) !== null)
      .flatMap((f) => importsOf(f).filter((i) => backendFolder(i) !== null && backendFolder(i) !== backendFolder(f)).map((i) => `${relative(SRC, f)} imports ${relative(SRC, i)}`));
    expect(offending).toEqual([]);
  });

  it('no thread loads a backend when it starts: each loads those of its sources when they come (registry.ts)', () => {
    const threads = ['main.ts', 'actors/compiler/worker.ts', 'actors/schema-builder/worker.ts', 'actors/multiplexer/worker.ts', 'actors/events/worker.ts', 'actors/metadata/worker.ts'];
    for (const entry of threads) {
      expect(loadedClosure(join(SRC, entry)).filter((f) => backendFolder(f) !== null).map((f) => relative(SRC, f)), entry).toEqual([]);
    }
  });

  const DRIVERS = /from '(pg|pg-cursor|tedious|@google-cloud\/bigquery)'/;

  it("a backend's translator face (all a compiler thread loads) loads no database driver and none of its other faces", () => {
    for (const kind of ['pg', 'mssql', 'bigquery']) {
      const faces = join(BACKENDS, kind, 'faces');
      const translator = loadedClosure(join(faces, 'translator.ts'));
      expect(translator.filter((f) => DRIVERS.test(readFileSync(f, 'utf8'))).map((f) => relative(SRC, f)), kind).toEqual([]);
      expect(translator.filter((f) => ['runtime.ts', 'admin.ts', 'events.ts'].some((face) => f === join(faces, face))), kind).toEqual([]);
    }
  });

  it('the runtime face (the front thread and multiplexers) loads no translation, and the events face no admin module', () => {
    for (const kind of ['pg', 'mssql', 'bigquery']) {
      const faces = join(BACKENDS, kind, 'faces');
      expect(loadedClosure(join(faces, 'runtime.ts')).filter((f) => f.includes(`${sep}translate${sep}`) && !f.endsWith(`${sep}context.ts`)).map((f) => relative(SRC, f)), kind).toEqual([]);
      expect(loadedClosure(join(faces, 'events.ts')).filter((f) => f === join(faces, 'admin.ts') || f.includes(`${sep}dml${sep}`)).map((f) => relative(SRC, f)), kind).toEqual([]);
    }
  });
});
