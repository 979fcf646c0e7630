/**
 * Backends stay behind `backends/backend.ts`: outside `src/backends/` (and `main.ts`,
 * which boots everything) no module imports a backend's folder, and no backend
 * imports another's (citus builds on pg inside pg's folder).
 */
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, loadedWith, sourceFiles, SRC } from '../support/source-imports.js';

const BACKENDS = join(SRC, 'backends');

/** The backend folder (`pg`, `mssql`...) a path lies in, or null outside backend folders. */
function backendFolder(path: string): string | null {
  const rel = relative(BACKENDS, path);
  if (rel.startsWith('..')) return null;
  const parts = rel.split(sep);
  return parts.length > 1 ? parts[0]! : null;
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
      const loaded = new Set<string>();
      const visit = (f: string) => {
        if (loaded.has(f)) return;
        loaded.add(f);
        loadedWith(f).forEach(visit);
      };
      visit(join(SRC, entry));
      expect([...loaded].filter((f) => backendFolder(f) !== null).map((f) => relative(SRC, f)), entry).toEqual([]);
    }
  });
});
