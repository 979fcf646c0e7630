// Shared by bench/graphql.mjs and bench/graphql-memory.mjs.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { benchServer } from '../_support.mjs';

const RESULTS = new URL('../RESULTS.md', import.meta.url);

/** The server of SERVICE_BENCH_DATABASE_URL, else of SERVICE_TEST_DATABASE_URL, else an embedded one. */
export async function databaseServer() {
  if (!process.env.SERVICE_BENCH_DATABASE_URL && process.env.SERVICE_TEST_DATABASE_URL) {
    return { url: process.env.SERVICE_TEST_DATABASE_URL, stop: async () => {} };
  }
  return benchServer();
}

/** Replaces the section of bench/RESULTS.md that starts with `heading` (or appends it), leaving the rest. */
export function writeResultsSection(heading, section) {
  const old = existsSync(RESULTS) ? readFileSync(RESULTS, 'utf8') : '# Bench results\n';
  const text = `${section.trimEnd()}\n`;
  const start = old.indexOf(`\n${heading}`);
  if (start < 0) return writeFileSync(RESULTS, `${old.trimEnd()}\n\n${text}`);
  const end = old.indexOf('\n## ', start + 1);
  writeFileSync(RESULTS, `${old.slice(0, start + 1)}${text}${end < 0 ? '' : `\n${old.slice(end + 1)}`}`);
}
