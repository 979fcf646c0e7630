/** The client's IP address as the socket sees it (read while the uWS response is valid: synchronously in the handler). */
import type { HttpResponse, WebSocket } from 'uWebSockets.js';

export const remoteAddress = (res: HttpResponse | WebSocket<unknown>): string => Buffer.from(res.getRemoteAddressAsText()).toString();
