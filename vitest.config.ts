import { configDefaults, defineConfig } from 'vitest/config';

// Suites against servers this machine cannot run (docs/backends.md) join when they are named.
const live = [
  ...(process.env.SERVICE_TEST_MSSQL_CONNECTION_STRING ? [] : ['test/live/mssql.test.ts']),
  ...(process.env.SERVICE_TEST_BIGQUERY_SERVICE_ACCOUNT ? [] : ['test/live/bigquery.test.ts']),
];

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...live],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    // A condition polled for (a page showing what a click did) gets 10 s on a busy two-core machine, not 1.
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 60_000,
    // e2e files each start engines and databases; two cores are the limit here.
    maxWorkers: 2,
  },
});
