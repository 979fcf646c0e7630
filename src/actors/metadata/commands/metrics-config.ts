/** set_metrics_config, remove_metrics_config (the well-known engine's), on /v1/metadata. */
import { ObjectReader } from '../../../util/decode.js';
import { metricsConfig, setMetricsConfig } from '../../../metadata/metrics-config.js';
import { SUCCESS, type Command } from './context.js';

export const setMetricsConfigCommand: Command = (ctx, args, path) => {
  setMetricsConfig(ctx.metadata, metricsConfig(args, path));
  return { metadata: ctx.metadata, response: SUCCESS };
};

/** Back to the default (nothing analysed); takes no arguments. */
export const removeMetricsConfig: Command = (ctx, args, path) => {
  ObjectReader.of(args ?? {}, path).done();
  setMetricsConfig(ctx.metadata, undefined);
  return { metadata: ctx.metadata, response: SUCCESS };
};
