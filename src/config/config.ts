/**
 * Boot configuration from flags and `SERVICE_GRAPHQL_*` environment variables
 * (a flag wins over its variable). Every value is checked here, so a bad one stops
 * the engine at boot with a message naming it, never later.
 */
import { DEFAULT_LOG_TYPES, LOG_TYPES, parseLogTypes, type LogLevel, type LogType } from '../log.js';
import { fileURLToPath } from 'node:url';
import { decodeJwtConfig, type JwtConfig } from '../auth/jwt-config.js';
import type { AuthHookConfig } from '../auth/webhook.js';
import { ApiError } from '../errors/admin.js';
import { parseCorsDomains, type CorsConfig } from './cors.js';
import { redisConfig, type RedisConfig } from './redis.js';

/** `.service/` in the package root, wherever the engine is started from (`npm start` or `node /path/dist/main.js`). */
const DEFAULT_DATA_DIR = fileURLToPath(new URL('../../.service', import.meta.url));



export interface Config {
  /** The `default` source; undefined means "start the embedded PostgreSQL". */
  databaseUrl: string | undefined;
  metadataDatabaseUrl: string | undefined;
  port: number;
  host: string;
  adminSecrets: string[];
  /** The embedded PostgreSQL's folder; relative to the working directory when given. */
  dataDir: string;
  logLevel: LogLevel;
  /** `SERVICE_GRAPHQL_ENABLED_LOG_TYPES`: the configurable log types written (log.ts). */
  enabledLogTypes: LogType[];
  maxBodyBytes: number;
  /** Largest body of `/v1/metadata`, `/v1/query` and `/v2/query` (a metadata document can be large). */
  adminMaxBodyBytes: number;
  /** Which browser origins may call the engine, or CORS disabled. */
  cors: CorsConfig;
  /** Unsent bytes a WebSocket may hold before it is closed (its client does not read). */
  websocketMaxBufferedBytes: number;
  /** How often the metadata actor polls the shared version row (multi-instance sync). */
  metadataPollMs: number;
  /** How often an unreachable remote schema is introspected again (docs/behaviour.md "Remote schemas"). */
  remoteSchemaRetryMs: number;
  /** Spec "Authentication" item 11: roles see the remote schemas through their permissions. */
  enableRemoteSchemaPermissions: boolean;
  /** How long a request waits for an actor's reply before it fails. */
  actorTimeoutMs: number;
  authHook: AuthHookConfig | undefined;
  jwtSecret: JwtConfig | undefined;
  /** The role of requests without credentials; without it they are refused. */
  unauthorizedRole: string | undefined;
  /** bigint, numeric and double precision values as JSON strings (they do not fit a JSON number exactly). */
  stringifyNumericTypes: boolean;
  /** Non-admin roles may run only the operations of allow-listed query collections. */
  enableAllowlist: boolean;
  /** How many documents of automatic persisted queries are kept by their hash (least recently used go first). */
  persistedQueriesCacheSize: number;
  /** How often subscriptions (live queries) are re-run, in ms. */
  liveQueryIntervalMs: number;
  /** How many cohorts of a subscription one multiplexed statement serves. */
  liveQueryBatchSize: number;
  /** Whether live queries are re-run only when a table they read may have changed (triggers + LISTEN), else polled. */
  liveQueryChangeCapture: boolean;
  /** `SERVICE_GRAPHQL_ENABLED_APIS`: which groups of routes are served. */
  enabledApis: Set<EnabledApi>;
  /** How many multiplexer actors (worker threads) run the live queries. */
  liveQueryMultiplexers: number;
  /** Each multiplexer actor's own pool per source: its largest size, and how long a connection may idle. */
  liveQueryMaxConnections: number;
  liveQueryIdleTimeoutSeconds: number;
  /** Event deliveries: at most this many at once per instance (and connections per webhook host). */
  eventsHttpPoolSize: number;
  /** Events leased per fetch. */
  eventsFetchBatchSize: number;
  /** How often the event log is polled, in ms; 0: this instance processes no events. */
  eventsFetchIntervalMs: number;
  /** Delivered events older than this many hours are removed; 0: kept. */
  eventsRetentionHours: number;
  /** Deliveries of one event trigger at once across all instances sharing its source; 0: no cap. */
  eventsMaxConcurrentPerTrigger: number;
  /** How often stored asynchronous action calls are polled, in ms; 0: this instance processes none. */
  asyncActionsFetchIntervalMs: number;
  /** Asynchronous action calls leased per poll. */
  asyncActionsFetchBatchSize: number;
  /** Asynchronous action calls in flight at once per instance. */
  asyncActionsConcurrency: number;
  /** How often a WebSocket keep-alive goes (`ka`, or `ping` in `graphql-transport-ws`), in ms (configured in seconds). */
  websocketKeepAliveMs: number;
  /** How long a WebSocket may stay open without `connection_init`, in ms (configured in seconds). */
  websocketInitTimeoutMs: number;
  /** `/v1/metrics` (the `metrics` API): its bearer secret (none: open, as the well-known engine's), and whether subscription metrics carry `operation_name` and `parameterized_query_hash`. */
  metrics: { secret: string | undefined; highCardinalityLabels: boolean };
  /** Statements' SQL text goes with their trace spans (never the values bound to them). */
  enableQueryTracing: boolean;
  /** How long a stopping engine lets requests, operations and deliveries in flight finish, in ms (configured in seconds). */
  gracefulShutdownTimeoutMs: number;
  /** The shared stores of the response cache and the rate limits (config/redis.ts). */
  redis: RedisConfig;
  /** The response cache of `@cached` queries: the longest TTL (seconds; a longer one is capped), the largest entry and the in-process store's size (bytes). */
  responseCache: { maxEntryTtlSeconds: number; maxEntryBytes: number; maxBytes: number };
  /** `/console` (off by default, as the well-known engine's); `assetsDir`: another build than the one in `dist/console`. */
  console: { enabled: boolean; assetsDir: string | undefined };
}

/**
 * Route groups, as the well-known engine names them: `graphql` (/v1/graphql, its explain, the
 * WebSocket, /api/rest), `metadata` (/v1/metadata, /v1/query, /v2/query), `developer`
 * (/dev/..., admin only), `config` (/v1alpha1/config, admin only), `metrics` (/v1/metrics, off
 * unless listed), `pgdump` (POST /v1alpha1/pg_dump, admin only; actors/metadata/pg-dump.ts).
 */
export const ENABLED_APIS = ['graphql', 'metadata', 'pgdump', 'config', 'developer', 'metrics'] as const;
export type EnabledApi = (typeof ENABLED_APIS)[number];

export class ConfigError extends Error {}

const MIB = 1024 * 1024;

interface Option {
  flag: string;
  env: string;
}

const opt = (flag: string, env: string): Option => ({ flag, env: `SERVICE_GRAPHQL_${env}` });

const OPTIONS = {
  databaseUrl: opt('database-url', 'DATABASE_URL'),
  metadataDatabaseUrl: opt('metadata-database-url', 'METADATA_DATABASE_URL'),
  port: opt('server-port', 'SERVER_PORT'),
  host: opt('server-host', 'SERVER_HOST'),
  adminSecret: opt('admin-secret', 'ADMIN_SECRET'),
  adminSecrets: opt('admin-secrets', 'ADMIN_SECRETS'),
  dataDir: opt('data-dir', 'DATA_DIR'),
  logLevel: opt('log-level', 'LOG_LEVEL'),
  enabledLogTypes: opt('enabled-log-types', 'ENABLED_LOG_TYPES'),
  maxBodyBytes: opt('max-body-size', 'MAX_BODY_SIZE'),
  adminMaxBodyBytes: opt('admin-max-body-size', 'ADMIN_MAX_BODY_SIZE'),
  corsDomain: opt('cors-domain', 'CORS_DOMAIN'),
  disableCors: opt('disable-cors', 'DISABLE_CORS'),
  wsReadCookie: opt('ws-read-cookie', 'WS_READ_COOKIE'),
  websocketMaxBufferedBytes: opt('websocket-max-buffered', 'WEBSOCKET_MAX_BUFFERED'),
  metadataPollMs: opt('metadata-poll-interval', 'METADATA_POLL_INTERVAL'),
  remoteSchemaRetryMs: opt('remote-schema-retry-interval', 'REMOTE_SCHEMA_RETRY_INTERVAL'),
  enableRemoteSchemaPermissions: opt('enable-remote-schema-permissions', 'ENABLE_REMOTE_SCHEMA_PERMISSIONS'),
  actorTimeoutMs: opt('actor-timeout', 'ACTOR_TIMEOUT'),
  authHook: opt('auth-hook', 'AUTH_HOOK'),
  authHookMode: opt('auth-hook-mode', 'AUTH_HOOK_MODE'),
  authHookTimeoutMs: opt('auth-hook-timeout', 'AUTH_HOOK_TIMEOUT'),
  jwtSecret: opt('jwt-secret', 'JWT_SECRET'),
  unauthorizedRole: opt('unauthorized-role', 'UNAUTHORIZED_ROLE'),
  stringifyNumericTypes: opt('stringify-numeric-types', 'STRINGIFY_NUMERIC_TYPES'),
  enableAllowlist: opt('enable-allowlist', 'ENABLE_ALLOWLIST'),
  persistedQueriesCacheSize: opt('persisted-queries-cache-size', 'PERSISTED_QUERIES_CACHE_SIZE'),
  liveQueryIntervalMs: opt('live-queries-refetch-interval', 'LIVE_QUERIES_MULTIPLEXED_REFETCH_INTERVAL'),
  liveQueryBatchSize: opt('live-queries-multiplexed-batch-size', 'LIVE_QUERIES_MULTIPLEXED_BATCH_SIZE'),
  liveQueryChangeCapture: opt('live-queries-change-capture', 'LIVE_QUERIES_CHANGE_CAPTURE'),
  enabledApis: opt('enabled-apis', 'ENABLED_APIS'),
  liveQueryMultiplexers: opt('live-queries-multiplexers', 'LIVE_QUERIES_MULTIPLEXERS'),
  liveQueryMaxConnections: opt('live-queries-max-connections', 'LIVE_QUERIES_MAX_CONNECTIONS'),
  liveQueryIdleTimeoutSeconds: opt('live-queries-idle-timeout', 'LIVE_QUERIES_IDLE_TIMEOUT'),
  websocketKeepAliveMs: opt('websocket-keepalive', 'WEBSOCKET_KEEPALIVE'),
  eventsHttpPoolSize: opt('events-http-pool-size', 'EVENTS_HTTP_POOL_SIZE'),
  eventsFetchBatchSize: opt('events-fetch-batch-size', 'EVENTS_FETCH_BATCH_SIZE'),
  eventsFetchIntervalMs: opt('events-fetch-interval', 'EVENTS_FETCH_INTERVAL'),
  eventsRetentionHours: opt('events-retention-hours', 'EVENTS_RETENTION_HOURS'),
  eventsMaxConcurrentPerTrigger: opt('events-max-concurrent-per-trigger', 'EVENTS_MAX_CONCURRENT_PER_TRIGGER'),
  asyncActionsFetchIntervalMs: opt('async-actions-fetch-interval', 'ASYNC_ACTIONS_FETCH_INTERVAL'),
  asyncActionsFetchBatchSize: opt('async-actions-fetch-batch-size', 'ASYNC_ACTIONS_FETCH_BATCH_SIZE'),
  asyncActionsConcurrency: opt('async-actions-concurrency', 'ASYNC_ACTIONS_CONCURRENCY'),
  websocketInitTimeoutMs: opt('websocket-connection-init-timeout', 'WEBSOCKET_CONNECTION_INIT_TIMEOUT'),
  metricsSecret: opt('metrics-secret', 'METRICS_SECRET'),
  metricsHighCardinalityLabels: opt('metrics-enable-high-cardinality-labels', 'METRICS_ENABLE_HIGH_CARDINALITY_LABELS'),
  enableQueryTracing: opt('enable-query-tracing', 'ENABLE_QUERY_TRACING'),
  gracefulShutdownTimeoutMs: opt('graceful-shutdown-timeout', 'GRACEFUL_SHUTDOWN_TIMEOUT'),
  cacheMaxEntryTtl: opt('cache-max-entry-ttl', 'CACHE_MAX_ENTRY_TTL'),
  cacheMaxEntrySize: opt('cache-max-entry-size', 'CACHE_MAX_ENTRY_SIZE'),
  cacheMaxSize: opt('cache-max-size', 'CACHE_MAX_SIZE'),
  enableConsole: opt('enable-console', 'ENABLE_CONSOLE'),
  consoleAssetsDir: opt('console-assets-dir', 'CONSOLE_ASSETS_DIR'),
} satisfies Record<string, Option>;

const SWITCHES = new Set([OPTIONS.enableRemoteSchemaPermissions.flag]);

function parseFlags(argv: string[]): Map<string, string> {
  const known = new Set(Object.values(OPTIONS).map((o) => o.flag));
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) throw new ConfigError(`unexpected argument "${arg}"`);
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    if (!known.has(name)) throw new ConfigError(`unknown flag "--${name}"`);
    // A switch (the well-known engine's `--enable-remote-schema-permissions`) may stand alone.
    const alone = eq < 0 && SWITCHES.has(name) && (argv[i + 1] === undefined || argv[i + 1]!.startsWith('--'));
    let value: string | undefined = alone ? 'true' : eq < 0 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined) throw new ConfigError(`flag "--${name}" needs a value`);
    flags.set(name, value);
  }
  return flags;
}

function validUrl(value: string, o: Option): string {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new ConfigError(`${o.env} / --${o.flag}: not a valid URL`);
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') {
    throw new ConfigError(`${o.env} / --${o.flag}: expected a postgres:// or postgresql:// URL, got "${u.protocol}"`);
  }
  return value;
}

function integer(value: string, o: Option, min: number, max: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max) {
    throw new ConfigError(`${o.env} / --${o.flag}: expected an integer from ${min} to ${max}, got "${value}"`);
  }
  return n;
}

function enabledApis(value: string, o: Option): Set<EnabledApi> {
  const names = value.split(',').map((n) => n.trim()).filter((n) => n !== '');
  for (const n of names) {
    if (!(ENABLED_APIS as readonly string[]).includes(n)) throw new ConfigError(`${o.env} / --${o.flag}: unknown API "${n}" (expected some of ${ENABLED_APIS.join(', ')})`);
  }
  return new Set(names as EnabledApi[]);
}

function logTypes(value: string, o: Option): LogType[] {
  const types = parseLogTypes(value);
  if (!types) throw new ConfigError(`${o.env} / --${o.flag}: expected some of ${LOG_TYPES.join(', ')}, got "${value}"`);
  return types;
}

function boolean(value: string | undefined, o: Option): boolean {
  if (value === undefined) return false;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new ConfigError(`${o.env} / --${o.flag}: expected true or false, got "${value}"`);
}

/** `--cors-domain`, `--disable-cors` and `--ws-read-cookie`, checked together as upstream does. */
function corsSettings(get: (o: Option) => string | undefined): CorsConfig {
  const { corsDomain, disableCors, wsReadCookie } = OPTIONS;
  const wsRead = boolean(get(wsReadCookie), wsReadCookie);
  if (boolean(get(disableCors), disableCors)) {
    if (get(corsDomain) !== undefined) throw new ConfigError(`${corsDomain.env} / --${corsDomain.flag} cannot be used with ${disableCors.env} / --${disableCors.flag}`);
    return { kind: 'disabled', wsReadCookie: wsRead };
  }
  if (wsRead) throw new ConfigError(`${wsReadCookie.env} / --${wsReadCookie.flag} can only be used when CORS is disabled (${disableCors.env} / --${disableCors.flag})`);
  try {
    return parseCorsDomains(get(corsDomain) ?? '*');
  } catch (e) {
    throw new ConfigError(`${corsDomain.env} / --${corsDomain.flag}: ${(e as Error).message}`);
  }
}

type Auth = Pick<Config, 'authHook' | 'jwtSecret' | 'unauthorizedRole'>;

/** The authentication mode, refused at boot where the well-known engine refuses it. */
function authSettings(get: (o: Option) => string | undefined, secured: boolean): Auth {
  const names = (...os: Option[]) => os.map((o) => `${o.env} / --${o.flag}`).join(' or ');
  const requiresSecret = (o: Option) =>
    new ConfigError(`${names(o)} requires an admin secret (${names(OPTIONS.adminSecret)}, or ${OPTIONS.adminSecrets.env})`);
  const hookUrl = get(OPTIONS.authHook);
  const jwtText = get(OPTIONS.jwtSecret);
  const unauthorizedRole = get(OPTIONS.unauthorizedRole);
  if (hookUrl !== undefined && jwtText !== undefined) throw new ConfigError(`webhook and JWT mode cannot be enabled at the same time (${names(OPTIONS.authHook, OPTIONS.jwtSecret)})`);
  for (const [o, value] of [[OPTIONS.authHook, hookUrl], [OPTIONS.jwtSecret, jwtText], [OPTIONS.unauthorizedRole, unauthorizedRole]] as const) {
    if (value !== undefined && !secured) throw requiresSecret(o);
  }
  if (unauthorizedRole !== undefined && hookUrl !== undefined) {
    throw new ConfigError(`${names(OPTIONS.unauthorizedRole)} is not allowed with ${names(OPTIONS.authHook)}: the webhook decides the role of every request`);
  }
  return {
    authHook: hookUrl === undefined ? undefined : authHook(hookUrl, get),
    jwtSecret: jwtText === undefined ? undefined : jwtSecret(jwtText),
    unauthorizedRole,
  };
}

function authHook(url: string, get: (o: Option) => string | undefined): AuthHookConfig {
  const o = OPTIONS.authHook;
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    throw new ConfigError(`${o.env} / --${o.flag}: not a valid URL`);
  }
  if (protocol !== 'http:' && protocol !== 'https:') throw new ConfigError(`${o.env} / --${o.flag}: expected an http:// or https:// URL, got "${protocol}"`);
  const mode = (get(OPTIONS.authHookMode) ?? 'GET').toUpperCase();
  if (mode !== 'GET' && mode !== 'POST') throw new ConfigError(`${OPTIONS.authHookMode.env} / --${OPTIONS.authHookMode.flag}: expected GET or POST, got "${mode}"`);
  const timeoutMs = integer(get(OPTIONS.authHookTimeoutMs) ?? '10000', OPTIONS.authHookTimeoutMs, 100, 600_000);
  return { url, mode, timeoutMs };
}

function jwtSecret(text: string): JwtConfig {
  const o = OPTIONS.jwtSecret;
  try {
    return decodeJwtConfig(text);
  } catch (e) {
    if (e instanceof ApiError) throw new ConfigError(`${o.env} / --${o.flag}: ${e.message} (at ${e.path})`);
    throw e;
  }
}

export function loadConfig(argv: string[], env: NodeJS.ProcessEnv): Config {
  const flags = parseFlags(argv);
  const get = (o: Option): string | undefined => {
    const v = flags.get(o.flag) ?? env[o.env];
    return v === undefined || v === '' ? undefined : v;
  };
  const url = (o: Option) => {
    const v = get(o);
    return v === undefined ? undefined : validUrl(v, o);
  };

  const databaseUrl = url(OPTIONS.databaseUrl);
  const level = get(OPTIONS.logLevel) ?? 'info';
  if (!['debug', 'info', 'warn', 'error'].includes(level)) {
    throw new ConfigError(`${OPTIONS.logLevel.env} / --log-level: expected debug, info, warn or error, got "${level}"`);
  }
  const secrets = [get(OPTIONS.adminSecret), ...(get(OPTIONS.adminSecrets)?.split(',') ?? [])]
    .map((s) => s?.trim())
    .filter((s): s is string => !!s);

  return {
    databaseUrl,
    metadataDatabaseUrl: url(OPTIONS.metadataDatabaseUrl) ?? databaseUrl,
    port: integer(get(OPTIONS.port) ?? '8080', OPTIONS.port, 0, 65535),
    host: get(OPTIONS.host) ?? '0.0.0.0',
    adminSecrets: secrets,
    dataDir: get(OPTIONS.dataDir) ?? DEFAULT_DATA_DIR,
    logLevel: level as LogLevel,
    enabledLogTypes: logTypes(get(OPTIONS.enabledLogTypes) ?? DEFAULT_LOG_TYPES.join(','), OPTIONS.enabledLogTypes),
    maxBodyBytes: integer(get(OPTIONS.maxBodyBytes) ?? String(10 * MIB), OPTIONS.maxBodyBytes, 1024, 2 ** 31 - 1),
    adminMaxBodyBytes: integer(get(OPTIONS.adminMaxBodyBytes) ?? String(256 * MIB), OPTIONS.adminMaxBodyBytes, 1024, 2 ** 31 - 1),
    cors: corsSettings(get),
    websocketMaxBufferedBytes: integer(get(OPTIONS.websocketMaxBufferedBytes) ?? String(16 * MIB), OPTIONS.websocketMaxBufferedBytes, 64 * 1024, 2 ** 31 - 1),
    metadataPollMs: integer(get(OPTIONS.metadataPollMs) ?? '250', OPTIONS.metadataPollMs, 10, 60_000),
    remoteSchemaRetryMs: integer(get(OPTIONS.remoteSchemaRetryMs) ?? '10000', OPTIONS.remoteSchemaRetryMs, 100, 3_600_000),
    enableRemoteSchemaPermissions: boolean(get(OPTIONS.enableRemoteSchemaPermissions), OPTIONS.enableRemoteSchemaPermissions),
    actorTimeoutMs: integer(get(OPTIONS.actorTimeoutMs) ?? '60000', OPTIONS.actorTimeoutMs, 100, 3_600_000),
    stringifyNumericTypes: boolean(get(OPTIONS.stringifyNumericTypes), OPTIONS.stringifyNumericTypes),
    enableAllowlist: boolean(get(OPTIONS.enableAllowlist), OPTIONS.enableAllowlist),
    persistedQueriesCacheSize: integer(get(OPTIONS.persistedQueriesCacheSize) ?? '1000', OPTIONS.persistedQueriesCacheSize, 1, 1_000_000),
    liveQueryIntervalMs: integer(get(OPTIONS.liveQueryIntervalMs) ?? '1000', OPTIONS.liveQueryIntervalMs, 10, 3_600_000),
    liveQueryBatchSize: integer(get(OPTIONS.liveQueryBatchSize) ?? '100', OPTIONS.liveQueryBatchSize, 1, 10_000),
    liveQueryChangeCapture: boolean(get(OPTIONS.liveQueryChangeCapture) ?? 'true', OPTIONS.liveQueryChangeCapture),
    enabledApis: enabledApis(get(OPTIONS.enabledApis) ?? 'metadata,graphql,pgdump,config', OPTIONS.enabledApis),
    liveQueryMultiplexers: integer(get(OPTIONS.liveQueryMultiplexers) ?? '1', OPTIONS.liveQueryMultiplexers, 1, 64),
    liveQueryMaxConnections: integer(get(OPTIONS.liveQueryMaxConnections) ?? '10', OPTIONS.liveQueryMaxConnections, 1, 10_000),
    liveQueryIdleTimeoutSeconds: integer(get(OPTIONS.liveQueryIdleTimeoutSeconds) ?? '180', OPTIONS.liveQueryIdleTimeoutSeconds, 0, 86_400),
    eventsHttpPoolSize: integer(get(OPTIONS.eventsHttpPoolSize) ?? '100', OPTIONS.eventsHttpPoolSize, 1, 10_000),
    eventsFetchBatchSize: integer(get(OPTIONS.eventsFetchBatchSize) ?? '100', OPTIONS.eventsFetchBatchSize, 1, 10_000),
    eventsFetchIntervalMs: integer(get(OPTIONS.eventsFetchIntervalMs) ?? '1000', OPTIONS.eventsFetchIntervalMs, 0, 3_600_000),
    eventsRetentionHours: integer(get(OPTIONS.eventsRetentionHours) ?? '168', OPTIONS.eventsRetentionHours, 0, 1_000_000),
    eventsMaxConcurrentPerTrigger: integer(get(OPTIONS.eventsMaxConcurrentPerTrigger) ?? '0', OPTIONS.eventsMaxConcurrentPerTrigger, 0, 10_000),
    asyncActionsFetchIntervalMs: integer(get(OPTIONS.asyncActionsFetchIntervalMs) ?? '1000', OPTIONS.asyncActionsFetchIntervalMs, 0, 3_600_000),
    asyncActionsFetchBatchSize: integer(get(OPTIONS.asyncActionsFetchBatchSize) ?? '100', OPTIONS.asyncActionsFetchBatchSize, 1, 10_000),
    asyncActionsConcurrency: integer(get(OPTIONS.asyncActionsConcurrency) ?? '100', OPTIONS.asyncActionsConcurrency, 1, 10_000),
    websocketKeepAliveMs: 1000 * integer(get(OPTIONS.websocketKeepAliveMs) ?? '5', OPTIONS.websocketKeepAliveMs, 1, 3600),
    websocketInitTimeoutMs: 1000 * integer(get(OPTIONS.websocketInitTimeoutMs) ?? '3', OPTIONS.websocketInitTimeoutMs, 1, 3600),
    // The well-known engine labels subscription metrics by operation by default (since v2.26).
    metrics: { secret: get(OPTIONS.metricsSecret), highCardinalityLabels: boolean(get(OPTIONS.metricsHighCardinalityLabels) ?? 'true', OPTIONS.metricsHighCardinalityLabels) },
    enableQueryTracing: boolean(get(OPTIONS.enableQueryTracing), OPTIONS.enableQueryTracing),
    // The well-known engine's default (60 s).
    gracefulShutdownTimeoutMs: 1000 * integer(get(OPTIONS.gracefulShutdownTimeoutMs) ?? '60', OPTIONS.gracefulShutdownTimeoutMs, 0, 86_400),
    // The well-known engine's longest TTL by default (an hour); entries up to 1 MiB, 100 MiB in all in memory.
    responseCache: {
      maxEntryTtlSeconds: integer(get(OPTIONS.cacheMaxEntryTtl) ?? '3600', OPTIONS.cacheMaxEntryTtl, 0, 31_536_000),
      maxEntryBytes: integer(get(OPTIONS.cacheMaxEntrySize) ?? '1048576', OPTIONS.cacheMaxEntrySize, 0, 2 ** 31),
      maxBytes: integer(get(OPTIONS.cacheMaxSize) ?? '104857600', OPTIONS.cacheMaxSize, 0, 2 ** 40),
    },
    console: { enabled: boolean(get(OPTIONS.enableConsole), OPTIONS.enableConsole), assetsDir: get(OPTIONS.consoleAssetsDir) },
    redis: redisConfig({
      get: (name) => (env[name] === '' ? undefined : env[name]),
      fail: (name, message) => {
        throw new ConfigError(`${name}: ${message}`);
      },
    }),
    ...authSettings(get, secrets.length > 0),
  };
}
