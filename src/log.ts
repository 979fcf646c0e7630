/**
 * One JSON object per line on stdout, in the well-known engine's shape: `{timestamp, level, type,
 * detail}`. `type` says which part of the engine wrote it; the configurable types are written only
 * when `SERVICE_GRAPHQL_ENABLED_LOG_TYPES` names them, the internal ones always (as upstream's
 * `metadata`, `event-trigger` or `health-check-log` are). A module logs through `logger(type)`;
 * `log` is the engine's own diagnostics (`unstructured`).
 */
/** The levels of `SERVICE_GRAPHQL_LOG_LEVEL`, least severe first. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** The types `SERVICE_GRAPHQL_ENABLED_LOG_TYPES` switches on and off. */
export const CONFIGURABLE_LOG_TYPES = [
  'startup',
  'http-log',
  'webhook-log',
  'websocket-log',
  'query-log',
  'execution-log',
  'livequery-poller-log',
  'action-handler-log',
  'jwk-refresh-log',
] as const;
/** Always written (upstream's internal log types); naming them in the setting changes nothing. */
export const INTERNAL_LOG_TYPES = ['event-trigger', 'scheduled-trigger', 'health-check-log', 'metadata', 'unstructured'] as const;
export type LogType = (typeof CONFIGURABLE_LOG_TYPES)[number] | (typeof INTERNAL_LOG_TYPES)[number];
export const LOG_TYPES: readonly LogType[] = [...CONFIGURABLE_LOG_TYPES, ...INTERNAL_LOG_TYPES];
/** The well-known engine's default set. */
export const DEFAULT_LOG_TYPES: readonly LogType[] = ['startup', 'http-log', 'webhook-log', 'websocket-log', 'jwk-refresh-log'];

const ENABLED_LOG_TYPES_ENV = 'SERVICE_GRAPHQL_ENABLED_LOG_TYPES';

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
let minimum: number = RANK[(process.env.SERVICE_GRAPHQL_LOG_LEVEL as LogLevel) ?? 'info'] ?? RANK.info;

/** The names of a `SERVICE_GRAPHQL_ENABLED_LOG_TYPES` value; null when one is unknown. */
export function parseLogTypes(value: string): LogType[] | null {
  const names = value.split(',').map((n) => n.trim()).filter((n) => n !== '');
  return names.every((n) => (LOG_TYPES as readonly string[]).includes(n)) ? (names as LogType[]) : null;
}

const enabled = new Set<LogType>(INTERNAL_LOG_TYPES);
// Worker threads take the setting from the environment the main thread wrote it into (`setEnabledLogTypes`).
for (const t of parseLogTypes(process.env[ENABLED_LOG_TYPES_ENV] ?? '') ?? []) enabled.add(t);
if (process.env[ENABLED_LOG_TYPES_ENV] === undefined) for (const t of DEFAULT_LOG_TYPES) enabled.add(t);

export function setLogLevel(level: LogLevel): void {
  minimum = RANK[level];
}

/** On the main thread at boot, before any worker starts: workers inherit the environment. */
export function setEnabledLogTypes(types: readonly LogType[]): void {
  enabled.clear();
  for (const t of [...INTERNAL_LOG_TYPES, ...types]) enabled.add(t);
  process.env[ENABLED_LOG_TYPES_ENV] = types.join(',');
}

/** Whether a line of this type and level would be written: callers building a costly detail ask first. */
export const logs = (type: LogType, level: LogLevel): boolean => RANK[level] >= minimum && enabled.has(type);

// Whoever reads the log may go away (a closed pipe: EPIPE): the lines are lost, the engine goes on.
process.stdout.on('error', () => {});

/** Writes one line of `type` with its structured `detail` (when the type and level are on). Never throws. */
export function writeLog(type: LogType, level: LogLevel, detail: unknown): void {
  if (!logs(type, level)) return;
  const timestamp = new Date().toISOString();
  let line: string;
  try {
    line = JSON.stringify({ timestamp, level, type, detail });
  } catch (e) {
    // A detail nested too deep for JSON.stringify (a client's request, in http-log): the line says so instead.
    line = JSON.stringify({ timestamp, level, type, detail: { message: 'this line could not be written', error: e instanceof Error ? e.message : String(e) } });
  }
  process.stdout.write(line + '\n');
}

export type Fields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: Fields): void;
  info(message: string, fields?: Fields): void;
  warn(message: string, fields?: Fields): void;
  error(message: string, fields?: Fields): void;
}

/** A module's logger: its lines are of `type`, their detail `{message, ...fields}`. */
export function logger(type: LogType): Logger {
  const write = (level: LogLevel) => (message: string, fields?: Fields) => {
    if (logs(type, level)) writeLog(type, level, { message, ...fields });
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}

/** The engine's own diagnostics. */
export const log = logger('unstructured');
