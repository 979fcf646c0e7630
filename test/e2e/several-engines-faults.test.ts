/**
 * Two engines on one database under mixed load, each stopped by kill -9 or SIGTERM and started
 * again (test/support/several-engines.mjs; bench/several-engines.mjs runs it longer for figures).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/db.js';
// @ts-expect-error: JavaScript shared with the bench, without declarations.
import { runSeveralEngines } from '../support/several-engines.mjs';

let db: TestDatabase;

beforeAll(async () => {
  db = await freshDatabase();
});

afterAll(async () => {
  await db?.drop();
});

describe('two engines under load and faults', () => {
  it('lose no acknowledged write or event, leave no subscriber stale, converge, and never answer 5xx while up', { timeout: 120_000 }, async () => {
    const report = await runSeveralEngines({ databaseUrl: db.url, durationMs: 24_000, subscribers: 30, insertsPerSecond: 20, metadataEveryMs: 3_000 });
    expect(report.restarts).toHaveLength(4);
    expect(report.acknowledgedWrites).toBeGreaterThan(200);
    expect(report.lostWrites).toEqual([]);
    expect(report.lostEvents).toEqual([]);
    expect(report.staleSubscribers).toEqual([]);
    expect(report.fiveHundreds).toEqual([]);
    expect(report.tablesMade).toBeGreaterThanOrEqual(5);
    // A table made and tracked through one engine is served by the other within a second.
    expect(report.servedByOtherMs.length).toBeGreaterThan(0);
    expect(Math.max(...report.servedByOtherMs)).toBeLessThan(1000);
    expect(report.convergence.converged).toBe(true);
    expect(report.convergence.ms).toBeLessThan(1000);
    // Nothing failed to install, no query found a table missing, no connection was used twice at once.
    expect(report.complaints.filter((line: string) => /cannot be installed|does not exist|DeprecationWarning/.test(line))).toEqual([]);
  });
});
