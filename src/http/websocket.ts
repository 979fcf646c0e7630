/**
 * GraphQL over WebSocket on `/v1/graphql` (uWebSockets.js): the sub-protocol is chosen
 * at upgrade (`graphql-transport-ws` or the legacy `graphql-ws`), the upgrade
 * request's headers are kept for authentication at `connection_init` (without the cookie
 * when the page's origin may not use it).
 */
import type { HttpRequest, HttpResponse, TemplatedApp, us_socket_context_t, WebSocket } from 'uWebSockets.js';
import { GraphQLWsConnection, type WsBackend, type WsProtocol } from '../graphql/ws-connection.js';
import { log } from '../log.js';
import { webSocketMayReadCookie, type CorsConfig } from './cors.js';
import { readHeaders } from './graphql.js';

export interface WebSocketOptions {
  cors: CorsConfig;
  maxMessageBytes: number;
  /** Unsent bytes a connection may hold before it is closed. */
  maxBufferedBytes: number;
}

interface Connection {
  headers: Record<string, string>;
  protocol: WsProtocol;
  conn?: GraphQLWsConnection;
  closed?: boolean;
}

/** Policy violation: the client does not read what it asked for. */
const SLOW_CLIENT_CODE = 1008;
const SLOW_CLIENT_REASON = 'client is not reading fast enough';

function chooseProtocol(header: string): WsProtocol | null {
  const offered = header.split(',').map((s) => s.trim());
  if (offered.includes('graphql-transport-ws')) return 'graphql-transport-ws';
  if (offered.includes('graphql-ws')) return 'graphql-ws';
  return null;
}

export function registerGraphQLWebSocket(app: TemplatedApp, backend: (upgradeHeaders: Record<string, string>) => WsBackend, opts: WebSocketOptions): void {
  const end = (ws: WebSocket<Connection>, code: number, reason: string) => {
    const data = ws.getUserData();
    if (data.closed) return;
    data.closed = true;
    ws.end(code, reason);
  };
  app.ws<Connection>('/v1/graphql', {
    maxPayloadLength: opts.maxMessageBytes,
    // No idle timeout: the legacy protocol's keep-alives and the client's pings keep it open.
    idleTimeout: 0,
    // No uWS limit (it would drop messages silently past 64 KiB): `send` below enforces ours.
    maxBackpressure: 0,
    upgrade: (res: HttpResponse, req: HttpRequest, context: us_socket_context_t) => {
      const headers = readHeaders(req);
      const protocol = chooseProtocol(req.getHeader('sec-websocket-protocol'));
      if (!protocol) {
        res.writeStatus('400 Bad Request').end('expected the graphql-transport-ws or graphql-ws sub-protocol');
        return;
      }
      // A browser sends the cookies of the engine's site whatever page opens the socket.
      if (!webSocketMayReadCookie(opts.cors, headers.origin)) delete headers.cookie;
      res.upgrade<Connection>({ headers, protocol }, req.getHeader('sec-websocket-key'), protocol, req.getHeader('sec-websocket-extensions'), context);
    },
    open: (ws: WebSocket<Connection>) => {
      const data = ws.getUserData();
      data.conn = new GraphQLWsConnection(
        {
          send: (text) => {
            if (data.closed) return;
            ws.send(text, false);
            // Unsent data piles up in memory when the client does not read: past the bound the
            // connection is closed rather than messages lost or memory exhausted.
            if (ws.getBufferedAmount() > opts.maxBufferedBytes) {
              log.warn('websocket closed: the client is not reading fast enough', { bufferedBytes: ws.getBufferedAmount() });
              end(ws, SLOW_CLIENT_CODE, SLOW_CLIENT_REASON);
            }
          },
          close: (code, reason) => end(ws, code, reason),
        },
        data.protocol,
        backend(data.headers),
      );
    },
    message: (ws: WebSocket<Connection>, message: ArrayBuffer) => {
      // uWS reuses the message memory after this call: decode it now.
      const text = Buffer.from(message).toString('utf8');
      void ws.getUserData().conn?.onMessage(text);
    },
    close: (ws: WebSocket<Connection>) => {
      const data = ws.getUserData();
      data.closed = true;
      data.conn?.onClose();
    },
  });
}
