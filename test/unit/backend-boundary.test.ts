/**
 * Backends stay behind `backends/backend.ts`: outside `src/backends/` (and `main.ts`,
 * which boots everything) no module imports a backend's folder, and no backend
 * imports another's (citus builds on pg inside pg's folder).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));
const BACKENDS = join(SRC, 'backends');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? sourceFiles(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : []));
}

/** Every relative module a file imports or re-exports (static or dynamic), as an absolute path. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"](\.[^'"]+)['"]/g)].map((m) => m[1]!);
  return specifiers.map((s) => resolve(dirname(file), s));
}

/** The backend folder (`pg`, `mssql`...) a path lies in, or null outside backend folders. */
function backendFolder(path: string): string | null {
  const rel = relative(BACKENDS, path);
  if (rel.startsWith('..')) return null;
  const parts = rel.split(sep);
  return parts.length > 1 ? parts[0]! : null;
}

describe('backend boundary', () => {
  const files = sourceFiles(SRC);

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
});
