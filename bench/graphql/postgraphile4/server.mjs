// PostGraphile 4 as a benchmark target, configured as its docs advise for production:
// no query log, no GraphiQL, the connection-filter and aggregates plugins for W3 and W4.
// Environment: BENCH_DATABASE_URL, BENCH_POOL_SIZE, BENCH_PORT.
import { createServer } from 'node:http';
import pg from 'pg';
import { postgraphile } from 'postgraphile';
import ConnectionFilterPlugin from 'postgraphile-plugin-connection-filter';
import PgAggregates from '@graphile/pg-aggregates';

const pool = new pg.Pool({ connectionString: process.env.BENCH_DATABASE_URL, max: Number(process.env.BENCH_POOL_SIZE) });
const handler = postgraphile(pool, 'public', {
  appendPlugins: [ConnectionFilterPlugin, PgAggregates.default],
  disableQueryLog: true,
  graphiql: false,
  dynamicJson: true,
  setofFunctionsContainNulls: false,
  retryOnInitFail: false,
});
createServer(handler).listen(Number(process.env.BENCH_PORT), '127.0.0.1');
