/**
 * GraphQL over WebSocket on `/v1/graphql` (uWebSockets.js): the sub-protocol is chosen
 * at upgrade (`graphql-transport-ws` or the legacy `graphql-ws`), the upgrade
 * request's headers are kept for authentication at `connection_init`.
 */
import type { HttpRequest, HttpResponse, TemplatedApp, us_socket_context_t, WebSocket } from 'uWebSockets.js';
import { GraphQLWsConnection, type WsBackend, type WsProtocol } from '../graphql/ws-connection.js';
import { readHeaders } from './graphql.js';

interface Connection {
  headers: Record<string, string>;
  protocol: WsProtocol;
  conn?: GraphQLWsConnection;
}

function chooseProtocol(header: string): WsProtocol | null {
  const offered = header.split(',').map((s) => s.trim());
  if (offered.includes('graphql-transport-ws')) return 'graphql-transport-ws';
  if (offered.includes('graphql-ws')) return 'graphql-ws';
  return null;
}

export function registerGraphQLWebSocket(app: TemplatedApp, backend: (upgradeHeaders: Record<string, string>) => WsBackend, maxMessageBytes: number): void {
  app.ws<Connection>('/v1/graphql', {
    maxPayloadLength: maxMessageBytes,
    // No idle timeout: the legacy protocol's keep-alives and the client's pings keep it open.
    idleTimeout: 0,
    upgrade: (res: HttpResponse, req: HttpRequest, context: us_socket_context_t) => {
      const headers = readHeaders(req);
      const protocol = chooseProtocol(req.getHeader('sec-websocket-protocol'));
      if (!protocol) {
        res.writeStatus('400 Bad Request').end('expected the graphql-transport-ws or graphql-ws sub-protocol');
        return;
      }
      res.upgrade<Connection>({ headers, protocol }, req.getHeader('sec-websocket-key'), protocol, req.getHeader('sec-websocket-extensions'), context);
    },
    open: (ws: WebSocket<Connection>) => {
      const data = ws.getUserData();
      data.conn = new GraphQLWsConnection(
        {
          send: (text) => void ws.send(text, false),
          close: (code, reason) => ws.end(code, reason),
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
      ws.getUserData().conn?.onClose();
    },
  });
}
