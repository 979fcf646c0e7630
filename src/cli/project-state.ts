/**
 * What the tool remembers of each engine a project was exported from or applied to: the
 * metadata's `resource_version` then, so that `metadata apply` sends it and the engine refuses
 * the document when someone changed the metadata meanwhile (a conflict, not an overwrite).
 * It is kept in `.service-graphql/state.json` in the project, per endpoint; it is local to a
 * checkout (`init` lists it in `.gitignore`): without it (a fresh CI checkout) the document is
 * applied as the well-known tool applies it, replacing what the engine has.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Project } from './project.js';

export const STATE_DIR = '.service-graphql';

interface State {
  [endpoint: string]: { resource_version: number };
}

const stateFile = (p: Project) => join(p.dir, STATE_DIR, 'state.json');

function read(p: Project): State {
  try {
    return existsSync(stateFile(p)) ? (JSON.parse(readFileSync(stateFile(p), 'utf8')) as State) : {};
  } catch {
    return {};
  }
}

export function knownResourceVersion(p: Project): number | undefined {
  return read(p)[p.endpoint]?.resource_version;
}

export function rememberResourceVersion(p: Project, version: number): void {
  const state = { ...read(p), [p.endpoint]: { resource_version: version } };
  mkdirSync(join(p.dir, STATE_DIR), { recursive: true });
  writeFileSync(stateFile(p), `${JSON.stringify(state, null, 2)}\n`);
}
