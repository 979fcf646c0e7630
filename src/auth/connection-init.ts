/**
 * The headers of a WebSocket connection for authentication: those of the
 * `connection_init` payload (its `headers` object, or its own string fields, since clients
 * differ) over those of the upgrade request, the connection-level ones left out.
 */
import { isObject } from '../util/decode.js';
import { AuthError } from './failure.js';

const UPGRADE_ONLY = new Set(['upgrade', 'connection', 'sec-websocket-key', 'sec-websocket-version', 'sec-websocket-extensions', 'sec-websocket-protocol']);

export function connectionInitHeaders(payload: unknown, upgradeHeaders: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(upgradeHeaders)) if (!UPGRADE_ONLY.has(name)) headers[name] = value;
  if (payload === undefined || payload === null) return headers;
  if (!isObject(payload)) throw new AuthError(400, 'parse-failed', 'the connection_init payload must be an object');
  const explicit = payload.headers;
  if (explicit !== undefined && !isObject(explicit)) throw new AuthError(400, 'parse-failed', 'the connection_init payload\'s "headers" must be an object');
  for (const [name, value] of Object.entries(explicit ?? payload)) {
    if (typeof value === 'string') headers[name.toLowerCase()] = value;
    // Inside `headers` every value must be a header; at the top level other parameters may sit.
    else if (explicit) throw new AuthError(400, 'parse-failed', `the connection_init header "${name}" must be a string`);
  }
  return headers;
}
