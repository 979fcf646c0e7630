/** The engine's source files and what each imports, for the tests of its layout. */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SRC = fileURLToPath(new URL('../../src', import.meta.url));

/** Every `.ts` file under `dir`. */
export function sourceFiles(dir: string = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? sourceFiles(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : []));
}

/**
 * Every relative module a file imports or re-exports (static, dynamic or in a type position,
 * types included: a type import is a dependency of the reader too), as an absolute `.ts` path.
 */
export function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"](\.[^'"]+)['"]/g)].map((m) => m[1]!);
  return specifiers.map((s) => resolve(dirname(file), s).replace(/\.js$/, '.ts'));
}
