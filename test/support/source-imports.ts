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

/**
 * The modules a file loads when it is loaded: its static imports and re-exports that are not
 * types alone (TypeScript erases those); dynamic `import()`s are left out (loaded when run).
 */
export function loadedWith(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s+['"](\.[^'"]+)['"]/gms)) {
    const names = m[3]!.trim();
    const typesOnly = m[2] !== undefined || /^\{\s*(type\s+[^,}]+,?\s*)+\}$/.test(names);
    if (!typesOnly) out.push(resolve(dirname(file), m[4]!).replace(/\.js$/, '.ts'));
  }
  for (const m of text.matchAll(/^\s*import\s+['"](\.[^'"]+)['"]/gm)) out.push(resolve(dirname(file), m[1]!).replace(/\.js$/, '.ts'));
  return out;
}

/** Everything loading `entry` loads (static imports that are not types alone, followed). */
export function loadedClosure(entry: string): string[] {
  const loaded = new Set<string>();
  const visit = (f: string) => {
    if (loaded.has(f)) return;
    loaded.add(f);
    loadedWith(f).forEach(visit);
  };
  visit(entry);
  return [...loaded];
}
