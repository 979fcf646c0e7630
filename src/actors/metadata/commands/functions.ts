/**
 * pg_track_function / pg_untrack_function, and the deprecated track_function /
 * untrack_function, which also take the function name alone as the arguments.
 */
import type { QualifiedName } from '../../../catalog/types.js';
import { badRequest, notExists } from '../../../errors/admin.js';
import { ObjectReader, str, type JsonObject } from '../../../util/decode.js';
import { entryFunction, findTrackedFunction, functionConfiguration } from '../../../metadata/functions.js';
import { findSource, trackedTable } from '../../../metadata/lookup.js';
import { functionName, sameTable, showTable } from '../../../metadata/names.js';
import type { SourceMetadata } from '../../../metadata/types.js';
import { catalogFunction } from './catalog.js';
import { SUCCESS, type Command, type CommandContext } from './context.js';

/** `{function, source, ...}`, or (the older form) the function name: a string or `{schema, name}`. */
function readTarget(ctx: CommandContext, args: unknown, path: string): { r: ObjectReader | null; source: SourceMetadata; fn: QualifiedName } {
  const named = typeof args === 'object' && args !== null && ('function' in args || 'source' in args);
  if (!named) return { r: null, source: findSource(ctx.metadata, 'default', path), fn: functionName(args, path) };
  const r = ObjectReader.of(args, path);
  const source = findSource(ctx.metadata, r.withDefault('source', str, 'default'), path);
  return { r, source, fn: r.required('function', functionName) };
}

export const trackFunction: Command = async (ctx, args, path) => {
  const { r, source, fn } = readTarget(ctx, args, path);
  const configuration = r?.optional('configuration', functionConfiguration);
  const comment = r?.optional('comment', str);
  r?.done();
  const shown = JSON.stringify(showTable(fn));
  if (findTrackedFunction(source, fn)) throw badRequest('already-tracked', `function already tracked: ${shown}`, path);
  if (trackedTable(source, fn)) throw badRequest('not-supported', `table with name ${shown} already exists`, path);
  // Read now so a function created outside run_sql is seen; resolution then checks it.
  await catalogFunction(ctx, source, fn);
  const entry: JsonObject = { function: { schema: fn.schema, name: fn.name } };
  if (configuration && Object.keys(configuration).length > 0) entry.configuration = configuration;
  if (comment !== undefined) entry.comment = comment;
  source.functions = [...(source.functions ?? []), entry];
  return { metadata: ctx.metadata, response: SUCCESS };
};

export const untrackFunction: Command = (ctx, args, path) => {
  const { r, source, fn } = readTarget(ctx, args, path);
  r?.done();
  if (!findTrackedFunction(source, fn)) {
    throw notExists(`function ${JSON.stringify(showTable(fn))} does not exist in source: ${source.name}`, path);
  }
  source.functions = (source.functions ?? []).filter((f) => !sameTable(entryFunction(f), fn));
  return { metadata: ctx.metadata, response: SUCCESS };
};
