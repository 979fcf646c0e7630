/**
 * GraphQL over WebSocket on `/v1/graphql` (uWebSockets.js): the sub-protocol is chosen
 * at upgrade (`graphql-transport-ws`, else the legacy `graphql-ws`), the upgrade
 * request's headers are kept for authentication at the first `connection_init` (without the
 * cookie when the page's origin may not use it).
 */
import type { HttpRequest, HttpResponse, TemplatedApp, us_socket_context_t, WebSocket } from 'uWebSockets.js';
import { GraphQLWsConnection, type WsBackend } from '../graphql/ws-connection.js';
import type { SendStatus } from '../graphql/ws-outbox.js';
import { chooseProtocol, type WsProtocol } from '../graphql/ws-protocol.js';
import { webSocketMayReadCookie } from './cors.js';
import type { CorsConfig } from '../config/cors.js';
import { readHeaders } from './graphql.js';
import type { RequestsInFlight } from './in-flight.js';
import { remoteAddress } from './remote-address.js';

export interface WebSocketOptions {
  cors: CorsConfig;
  maxMessageBytes: number;
  /** Unsent bytes (buffered, and live results kept for when it drains) a connection may hold before it is closed. */
  maxBufferedBytes: number;
  /** Absent when metrics are off. */
  meter?: WsMeter;
}

/** What the metrics count of WebSocket traffic (`service_websocket_connections`, message bytes each way). */
export interface WsMeter {
  opened(): void;
  closed(): void;
  received(bytes: number): void;
  sent(bytes: number): void;
}

interface Connection {
  headers: Record<string, string>;
  /** The client's IP address (rate limits by IP). */
  address: string;
  protocol: WsProtocol;
  conn?: GraphQLWsConnection;
  closed?: boolean;
}

/** uWS `send` results: 0 backpressure (part of the message is buffered), 1 sent, 2 dropped. */
const SEND_STATUS: readonly SendStatus[] = ['buffered', 'sent', 'dropped'];

/** The open WebSockets, for the graceful shutdown. */
export interface OpenWebSockets {
  readonly size: number;
  /** Each ends its operations under way (until `deadline`) and closes with 1001 (`GraphQLWsConnection.goAway`). */
  goAway(deadline: number): Promise<void>;
}

/** A close frame's reason holds at most 123 bytes. */
function closeReason(reason: string): string {
  const bytes = Buffer.from(reason);
  return bytes.length <= 123 ? reason : bytes.subarray(0, 120).toString('utf8').replace(/\uFFFD$/, '') + '...';
}

/** `requests`: a stopping engine (`draining`) refuses upgrades as the well-known engine does: 503, `Retry-After: 0`. */
export function registerGraphQLWebSocket(app: TemplatedApp, backend: (upgradeHeaders: Record<string, string>, address: string) => WsBackend, opts: WebSocketOptions, requests: RequestsInFlight): OpenWebSockets {
  const meter = opts.meter;
  const open = new Set<GraphQLWsConnection>();
  const end = (ws: WebSocket<Connection>, code: number, reason: string) => {
    const data = ws.getUserData();
    if (data.closed) return;
    data.closed = true;
    ws.end(code, closeReason(reason));
  };
  app.ws<Connection>('/v1/graphql', {
    maxPayloadLength: opts.maxMessageBytes,
    // uWS pings a connection silent for 104 s and drops it when nothing came back 16 s later
    // (a dead peer). The same 16 s are what a closed connection's client has to read what was
    // queued before the close frame (the slow-client close, 1008): with no idle timeout, uWS
    // gave it 4 s and then cut the connection (the client saw 1006).
    idleTimeout: 120,
    sendPingsAutomatically: true,
    // No uWS limit (it would drop messages silently past 64 KiB): the connection's outbox enforces ours.
    maxBackpressure: 0,
    upgrade: (res: HttpResponse, req: HttpRequest, context: us_socket_context_t) => {
      if (requests.draining) return void res.writeStatus('503 Service Unavailable').writeHeader('Retry-After', '0').end('Server is shutting down', true);
      const headers = readHeaders(req);
      const { protocol, answer } = chooseProtocol(req.getHeader('sec-websocket-protocol'));
      // A browser sends the cookies of the engine's site whatever page opens the socket.
      if (!webSocketMayReadCookie(opts.cors, headers.origin)) delete headers.cookie;
      res.upgrade<Connection>({ headers, protocol, address: remoteAddress(res) }, req.getHeader('sec-websocket-key'), answer, req.getHeader('sec-websocket-extensions'), context);
    },
    open: (ws: WebSocket<Connection>) => {
      const data = ws.getUserData();
      meter?.opened();
      data.conn = new GraphQLWsConnection(
        {
          send: (text) => {
            if (data.closed) return 'sent';
            meter?.sent(Buffer.byteLength(text));
            return SEND_STATUS[ws.send(text, false)]!;
          },
          cork: (write) => (data.closed ? write() : void ws.cork(write)),
          bufferedBytes: () => (data.closed ? 0 : ws.getBufferedAmount()),
          close: (code, reason) => end(ws, code, reason),
        },
        data.protocol,
        backend(data.headers, data.address),
        opts.maxBufferedBytes,
      );
      open.add(data.conn);
    },
    drain: (ws: WebSocket<Connection>) => {
      // Not written from inside the drain handler: uWS does not watch for writability again after
      // a write made there comes back partial, so the rest would never go (seen with uws-pack 20.0.8).
      const data = ws.getUserData();
      setImmediate(() => {
        if (!data.closed) data.conn?.onDrain();
      });
    },
    message: (ws: WebSocket<Connection>, message: ArrayBuffer) => {
      meter?.received(message.byteLength);
      // uWS reuses the message memory after this call: decode it now.
      const text = Buffer.from(message).toString('utf8');
      void ws.getUserData().conn?.onMessage(text);
    },
    close: (ws: WebSocket<Connection>) => {
      const data = ws.getUserData();
      meter?.closed();
      data.closed = true;
      if (data.conn) open.delete(data.conn);
      data.conn?.onClose();
    },
  });
  return {
    get size() {
      return open.size;
    },
    goAway: async (deadline) => {
      await Promise.all([...open].map((c) => c.goAway(deadline)));
    },
  };
}
