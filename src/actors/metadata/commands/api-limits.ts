/** set_api_limits, remove_api_limits (the well-known engine's), on /v1/metadata. */
import { ObjectReader } from '../../../util/decode.js';
import { apiLimits, setApiLimits } from '../../../metadata/api-limits.js';
import { SUCCESS, type Command } from './context.js';

/** Replaces the whole section: limits left out of the arguments are gone. */
export const setApiLimitsCommand: Command = (ctx, args, path) => {
  setApiLimits(ctx.metadata, apiLimits(args, path));
  return { metadata: ctx.metadata, response: SUCCESS };
};

/** No limits at all; takes no arguments. */
export const removeApiLimits: Command = (ctx, args, path) => {
  ObjectReader.of(args ?? {}, path).done();
  setApiLimits(ctx.metadata, undefined);
  return { metadata: ctx.metadata, response: SUCCESS };
};
