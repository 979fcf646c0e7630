/** One JSON object per line on stdout: `{timestamp, level, thread, message, ...fields}`. */
import { threadId } from 'node:worker_threads';
/** The levels of `SERVICE_GRAPHQL_LOG_LEVEL`, least severe first. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
let minimum: number = RANK[(process.env.SERVICE_GRAPHQL_LOG_LEVEL as LogLevel) ?? 'info'] ?? RANK.info;

export function setLogLevel(level: LogLevel): void {
  minimum = RANK[level];
}

export type Fields = Record<string, unknown>;

// Whoever reads the log may go away (a closed pipe: EPIPE): the lines are lost, the engine goes on.
process.stdout.on('error', () => {});

function write(level: LogLevel, message: string, fields?: Fields): void {
  if (RANK[level] < minimum) return;
  const line = JSON.stringify({ timestamp: new Date().toISOString(), level, thread: threadId, message, ...fields });
  process.stdout.write(line + '\n');
}

export const log = {
  debug: (m: string, f?: Fields) => write('debug', m, f),
  info: (m: string, f?: Fields) => write('info', m, f),
  warn: (m: string, f?: Fields) => write('warn', m, f),
  error: (m: string, f?: Fields) => write('error', m, f),
};
