/**
 * The engine's own sessions on a source: JIT compilation is off for them (generated statements
 * pass jit_above_cost on estimates alone; docs/behaviour.md "PostgreSQL sessions").
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';
import { gql } from '../support/graphql.js';

const fx = useEngine();

beforeAll(async () => {
  // On for the database whatever the server's default: the engine's sessions turn it off themselves.
  await fx.db.sql(`ALTER DATABASE "${fx.db.name}" SET jit = on`);
  await fx.db.sql(`
    CREATE TABLE setting (name text PRIMARY KEY, value text);
    CREATE FUNCTION session_settings() RETURNS SETOF setting AS $$ SELECT 'jit'::text, current_setting('jit') $$ LANGUAGE sql STABLE;
  `);
  for (const [type, args] of [['pg_track_table', { table: 'setting' }], ['pg_track_function', { function: 'session_settings' }]] as const) {
    expect((await fx.engine.metadata({ type, args })).status).toBe(200);
  }
});

describe("the engine's sessions on a PostgreSQL source", () => {
  it('run with JIT compilation off, while other sessions keep the database setting', async () => {
    expect(await gql(fx.engine, '{ session_settings { name value } }')).toEqual({ data: { session_settings: [{ name: 'jit', value: 'off' }] } });
    expect((await fx.db.sql("SELECT current_setting('jit') AS jit")).rows[0].jit).toBe('on');
  });
});
