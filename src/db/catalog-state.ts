/**
 * The catalog state (`get_catalog_state` / `set_catalog_state`): two JSON documents the
 * well-known engine keeps for its tools beside the metadata, one for the command-line tool
 * (`cli`: the migrations applied per database) and one for the console, and the id of the
 * metadata database. One row in the metadata database, so every engine sharing it answers the
 * same; each `set` replaces its document whole, as the well-known engine does.
 */
export const CATALOG_STATE_SCHEMA = `
CREATE TABLE IF NOT EXISTS service_catalog.catalog_state (
  id integer PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  catalog_id uuid NOT NULL DEFAULT gen_random_uuid(),
  cli_state json NOT NULL DEFAULT '{}',
  console_state json NOT NULL DEFAULT '{}'
);
INSERT INTO service_catalog.catalog_state (id) VALUES (1) ON CONFLICT (id) DO NOTHING;`;

export type CatalogStateType = 'cli' | 'console';

export const CATALOG_STATE_TYPES: readonly CatalogStateType[] = ['cli', 'console'];

export const CATALOG_STATE_STATEMENTS = {
  get: 'SELECT catalog_id::text AS id, cli_state, console_state FROM service_catalog.catalog_state WHERE id = 1',
  set: {
    cli: 'UPDATE service_catalog.catalog_state SET cli_state = $1::json WHERE id = 1',
    console: 'UPDATE service_catalog.catalog_state SET console_state = $1::json WHERE id = 1',
  } satisfies Record<CatalogStateType, string>,
};
