/**
 * The project the tool works on and the engine it talks to, as the well-known tool resolves
 * them: the project directory (`--project`, else the working directory) holds `config.yaml`
 * (version 3: `endpoint`, `admin_secret`, `metadata_directory`, `migrations_directory`,
 * `seeds_directory`); `--envfile` (default `.env` in the project) is read into the environment
 * first, without overriding what is set; then a flag wins over `SERVICE_GRAPHQL_ENDPOINT` /
 * `SERVICE_GRAPHQL_ADMIN_SECRET`, which win over `config.yaml`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { parse } from 'yaml';
import { CliError, EXIT } from './errors.js';

export interface GlobalOptions {
  endpoint?: string;
  adminSecret?: string;
  project?: string;
  envfile?: string;
  databaseName?: string;
  output?: OutputFormat;
  skipUpdateCheck?: boolean;
  noColor?: boolean;
}

export type OutputFormat = 'human' | 'json' | 'yaml';

export interface Project {
  /** The project directory (absolute). */
  dir: string;
  /** The engine's base URL, without a trailing slash. */
  endpoint: string;
  adminSecret: string | undefined;
  metadataDir: string;
  migrationsDir: string;
  seedsDir: string;
  /** `--database-name`, else `default`. */
  database: string;
  /** Whether `config.yaml` was found. */
  configured: boolean;
}

/** `config.yaml`'s keys this tool reads (the well-known tool's version 3). */
interface ConfigFile {
  version?: number;
  endpoint?: string;
  admin_secret?: string;
  metadata_directory?: string;
  migrations_directory?: string;
  seeds_directory?: string;
}

export const CONFIG_FILE = 'config.yaml';
const DEFAULT_ENDPOINT = 'http://localhost:8080';

function readConfig(path: string): ConfigFile {
  let value: unknown;
  try {
    value = parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new CliError(`${path}: ${(e as Error).message}`, EXIT.usage);
  }
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new CliError(`${path}: expected a mapping of settings`, EXIT.usage);
  const c = value as Record<string, unknown>;
  for (const key of ['endpoint', 'admin_secret', 'metadata_directory', 'migrations_directory', 'seeds_directory'] as const) {
    if (c[key] !== undefined && typeof c[key] !== 'string') throw new CliError(`${path}: "${key}" must be a string`, EXIT.usage);
  }
  if (c.version !== undefined && c.version !== 3 && c.version !== 2) throw new CliError(`${path}: "version" must be 2 or 3, got ${JSON.stringify(c.version)}`, EXIT.usage);
  return c as ConfigFile;
}

/** Reads `.env`-style assignments into `env`, leaving what is already set. */
function loadEnvFile(path: string, env: NodeJS.ProcessEnv): void {
  let parsed: Record<string, string>;
  try {
    parsed = parseEnv(readFileSync(path, 'utf8')) as Record<string, string>;
  } catch (e) {
    throw new CliError(`${path}: ${(e as Error).message}`, EXIT.usage);
  }
  for (const [k, v] of Object.entries(parsed)) env[k] ??= v;
}

export function resolveProject(o: GlobalOptions, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Project {
  const dir = resolve(cwd, o.project ?? '.');
  const envfile = o.envfile === undefined ? join(dir, '.env') : resolve(dir, o.envfile);
  if (existsSync(envfile)) loadEnvFile(envfile, env);
  else if (o.envfile !== undefined) throw new CliError(`${envfile}: no such file`, EXIT.usage);
  const configPath = join(dir, CONFIG_FILE);
  const configured = existsSync(configPath);
  const c = configured ? readConfig(configPath) : {};
  const inProject = (p: string | undefined, fallback: string) => (p && isAbsolute(p) ? p : join(dir, p ?? fallback));
  const endpoint = (o.endpoint ?? env.SERVICE_GRAPHQL_ENDPOINT ?? c.endpoint ?? DEFAULT_ENDPOINT).replace(/\/+$/, '');
  try {
    const u = new URL(endpoint);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`expected http:// or https://, got ${u.protocol}`);
  } catch (e) {
    throw new CliError(`endpoint "${endpoint}": ${(e as Error).message}`, EXIT.usage);
  }
  return {
    dir,
    endpoint,
    adminSecret: o.adminSecret ?? env.SERVICE_GRAPHQL_ADMIN_SECRET ?? c.admin_secret,
    metadataDir: inProject(c.metadata_directory, 'metadata'),
    migrationsDir: inProject(c.migrations_directory, 'migrations'),
    seedsDir: inProject(c.seeds_directory, 'seeds'),
    database: o.databaseName ?? 'default',
    configured,
  };
}
