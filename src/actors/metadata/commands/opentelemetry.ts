/** set_opentelemetry_config and set_opentelemetry_status (the well-known engine's), on /v1/metadata. */
import { oneOf } from '../../../util/decode.js';
import { OTEL_STATUSES, openTelemetryConfig, openTelemetryOf, setOpenTelemetry } from '../../../metadata/opentelemetry.js';
import { SUCCESS, type Command } from './context.js';

/** The whole setting, replacing the stored one (absent keys take their defaults). */
export const setOpenTelemetryConfig: Command = (ctx, args, path) => {
  setOpenTelemetry(ctx.metadata, openTelemetryConfig(args, path, process.env));
  return { metadata: ctx.metadata, response: SUCCESS };
};

/** `args` is the status itself (`"enabled"` or `"disabled"`); enabling checks the rest of the setting as stored. */
export const setOpenTelemetryStatus: Command = (ctx, args, path) => {
  const status = oneOf(OTEL_STATUSES, 'OpenTelemetry status')(args, path);
  setOpenTelemetry(ctx.metadata, openTelemetryConfig({ ...openTelemetryOf(ctx.metadata), status }, path, process.env));
  return { metadata: ctx.metadata, response: SUCCESS };
};
