/**
 * `get_catalog_state` and `set_catalog_state`, as the well-known engine answers them: the
 * command-line tool's and the console's own state, kept in the metadata database
 * (`db/catalog-state.ts`) and never part of the metadata document.
 */
import { CATALOG_STATE_STATEMENTS, CATALOG_STATE_TYPES } from '../../../db/catalog-state.js';
import { json, ObjectReader, oneOf, type Json } from '../../../util/decode.js';
import { SUCCESS, type Command } from './context.js';

const stateType = oneOf(CATALOG_STATE_TYPES, 'catalog state type');

export const getCatalogState: Command = async (ctx, args, path) => {
  ObjectReader.of(args ?? {}, path).done();
  const [row] = await ctx.catalogQuery(CATALOG_STATE_STATEMENTS.get, []);
  return { metadata: null, response: { id: row!.id as string, cli_state: row!.cli_state as Json, console_state: row!.console_state as Json } };
};

export const setCatalogState: Command = async (ctx, args, path) => {
  const r = ObjectReader.of(args, path);
  const type = r.required('type', stateType);
  const state = r.required('state', json);
  r.done();
  await ctx.catalogQuery(CATALOG_STATE_STATEMENTS.set[type], [JSON.stringify(state)]);
  return { metadata: null, response: SUCCESS };
};
