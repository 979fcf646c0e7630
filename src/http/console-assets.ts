/**
 * The console's built files (`npm run build` writes them to `dist/console`; another build with
 * `SERVICE_GRAPHQL_CONSOLE_ASSETS_DIR`), read once at start into memory and gzipped there, so
 * that serving one is a map lookup. File names under `assets/` carry a content hash (the
 * bundler's), so they are cached for a year; `index.html` names them and is never cached.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ConfigError } from '../config/config.js';

export interface ConsoleAsset {
  body: Buffer;
  /** The gzipped body, when it is smaller by enough to matter. */
  gzipped: Buffer | null;
  contentType: string;
  cacheControl: string;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.json', '.svg', '.map', '.txt']);
const IMMUTABLE = 'public, max-age=31536000, immutable';
const NOT_CACHED = 'no-cache';

/** Every file under `dir`, by its path from there (with `/`). */
function filesUnder(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) found.push(relative(dir, path).split(sep).join('/'));
    }
  };
  walk(dir);
  return found;
}

/** Whether `dir` holds an `index.html` (false as well when `dir` is missing or not a folder). */
function hasIndex(dir: string): boolean {
  try {
    return statSync(join(dir, 'index.html')).isFile();
  } catch {
    return false;
  }
}

/** The files of a console build, by their path under `/console/`; a configuration error when `dir` holds no `index.html`. */
export function loadConsoleAssets(dir: string): Map<string, ConsoleAsset> {
  if (!hasIndex(dir)) {
    throw new ConfigError(`the console's files are not in ${dir} (no index.html): run "npm run build", or point SERVICE_GRAPHQL_CONSOLE_ASSETS_DIR at a console build`);
  }
  const assets = new Map<string, ConsoleAsset>();
  for (const path of filesUnder(dir)) {
    const ext = extname(path).toLowerCase();
    const body = readFileSync(join(dir, path));
    const gzipped = COMPRESSIBLE.has(ext) && body.length > 1024 ? gzipSync(body, { level: 9 }) : null;
    assets.set(path, {
      body,
      gzipped: gzipped && gzipped.length < body.length * 0.9 ? gzipped : null,
      contentType: TYPES[ext] ?? 'application/octet-stream',
      cacheControl: path.startsWith('assets/') ? IMMUTABLE : NOT_CACHED,
    });
  }
  return assets;
}
