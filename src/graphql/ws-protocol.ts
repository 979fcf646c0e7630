/**
 * The two GraphQL WebSocket sub-protocols' vocabularies: `graphql-transport-ws` (the
 * graphql-ws library's PROTOCOL.md: subscribe/next/error/complete, ping/pong, protocol
 * errors close the socket with 44xx) and the legacy `graphql-ws` (subscriptions-transport-ws:
 * start/data/error/complete/stop, `ka`, protocol errors answered with `connection_error`).
 */
export type WsProtocol = 'graphql-ws' | 'graphql-transport-ws';

/** Close codes (graphql-ws PROTOCOL.md; the legacy protocol uses those that apply). */
export const CloseCode = {
  Normal: 1000,
  /** The engine is stopping (RFC 6455: going away); clients reconnect and subscribe again. */
  GoingAway: 1001,
  /** The client does not read what it asked for (RFC 6455: policy violation). */
  SlowClient: 1008,
  BadRequest: 4400,
  Unauthorized: 4401,
  Forbidden: 4403,
  InitTimeout: 4408,
  SubscriberAlreadyExists: 4409,
  InternalError: 4500,
} as const;

export interface ProtocolVocabulary {
  /** The client's messages that start and stop an operation. */
  start: 'start' | 'subscribe';
  stop: 'stop' | 'complete';
  /** The server's result message. */
  result: 'data' | 'next';
  /** What the server sends every keep-alive interval. */
  keepAlive: string;
  /** Whether a keep-alive also goes right after `connection_ack` (Apollo clients time their keep-alive from it). */
  keepAliveAtAck: boolean;
}

export const VOCABULARY: Record<WsProtocol, ProtocolVocabulary> = {
  'graphql-ws': { start: 'start', stop: 'stop', result: 'data', keepAlive: '{"type":"ka"}', keepAliveAtAck: true },
  'graphql-transport-ws': {
    start: 'subscribe',
    stop: 'complete',
    result: 'next',
    keepAlive: '{"type":"ping","payload":{"message":"keepalive"}}',
    keepAliveAtAck: false,
  },
};

/**
 * Offered sub-protocols (the `Sec-WebSocket-Protocol` header) -> the one spoken, and the one named
 * in the answer: `graphql-transport-ws` when offered, else the legacy protocol (upstream's
 * fallback), named only when the client offered it (a client must fail a handshake whose
 * answer names a protocol it did not offer).
 */
export function chooseProtocol(header: string): { protocol: WsProtocol; answer: string } {
  const offered = header.split(',').map((s) => s.trim());
  if (offered.includes('graphql-transport-ws')) return { protocol: 'graphql-transport-ws', answer: 'graphql-transport-ws' };
  return { protocol: 'graphql-ws', answer: offered.includes('graphql-ws') ? 'graphql-ws' : '' };
}
