/**
 * One GraphQL WebSocket connection, in either sub-protocol: `graphql-ws` (the legacy
 * Apollo protocol the well-known engine's clients speak: start/data/stop/ka) or
 * `graphql-transport-ws` (subscribe/next/complete/ping). The session is decided at
 * `connection_init`; the connection closes when its credential expires.
 */
import type { AuthFailure } from '../auth/failure.js';
import type { Session } from '../auth/session.js';
import { isObject } from '../util/decode.js';
import type { Subscriber } from './live-queries.js';

export type WsProtocol = 'graphql-ws' | 'graphql-transport-ws';

export interface WsPeer {
  send(text: string): void;
  close(code: number, reason: string): void;
}

export interface WsBackend {
  authenticate(payload: unknown): Promise<Session | AuthFailure>;
  operation(session: Session, request: unknown): Promise<'query' | 'mutation' | 'subscription' | { error: string }>;
  execute(session: Session, request: unknown): Promise<string>;
  /** Starts a subscription; returns how to stop it. */
  subscribe(session: Session, request: unknown, deliver: Subscriber): Promise<() => void>;
  keepAliveMs: number;
}

const isFailure = (r: Session | AuthFailure): r is AuthFailure => 'status' in r && 'code' in r;

export class GraphQLWsConnection {
  private session: Session | null = null;
  private readonly operations = new Map<string, () => void>();
  private timers: NodeJS.Timeout[] = [];
  private closed = false;

  constructor(
    private readonly peer: WsPeer,
    private readonly protocol: WsProtocol,
    private readonly backend: WsBackend,
  ) {}

  private send(message: Record<string, unknown>): void {
    if (!this.closed) this.peer.send(JSON.stringify(message));
  }

  /** A result message around the response text, spliced unparsed (results can be large). */
  private sendResult(id: string, type: string, text: string): void {
    if (!this.closed) this.peer.send(`{"id":${JSON.stringify(id)},"type":"${type}","payload":${text}}`);
  }

  private close(code: number, reason: string): void {
    if (this.closed) return;
    this.onClose();
    this.peer.close(code, reason);
  }

  async onMessage(text: string): Promise<void> {
    let m: unknown;
    try {
      m = JSON.parse(text);
    } catch {
      return this.close(4400, 'invalid JSON message');
    }
    if (!isObject(m) || typeof m.type !== 'string') return this.close(4400, 'a message needs a "type"');
    const id = typeof m.id === 'string' || typeof m.id === 'number' ? String(m.id) : null;
    switch (m.type) {
      case 'connection_init':
        return this.init(m.payload);
      case 'start':
      case 'subscribe':
        if (!this.session) return this.close(4401, 'Unauthorized');
        if (id === null) return this.close(4400, 'an operation needs an "id"');
        return this.start(id, m.payload);
      case 'stop':
      case 'complete':
        if (id !== null) this.stop(id);
        return;
      case 'ping':
        return this.send({ type: 'pong' });
      case 'pong':
        return;
      case 'connection_terminate':
        return this.close(1000, 'terminated');
      default:
        return this.close(4400, `unknown message type ${JSON.stringify(m.type)}`);
    }
  }

  private async init(payload: unknown): Promise<void> {
    if (this.session) return this.close(4429, 'Too many initialisation requests');
    const result = await this.backend.authenticate(payload);
    if (isFailure(result)) {
      if (this.protocol === 'graphql-ws') this.send({ type: 'connection_error', payload: { message: result.message, extensions: { code: result.code, path: '$' } } });
      return this.close(4403, result.message);
    }
    this.session = result;
    this.send({ type: 'connection_ack' });
    if (this.protocol === 'graphql-ws') {
      this.send({ type: 'ka' });
      this.timers.push(setInterval(() => this.send({ type: 'ka' }), this.backend.keepAliveMs));
    }
    // Spec "Authentication" 10: the connection lives as long as its credential.
    if (result.expiresAt !== undefined) {
      this.timers.push(setTimeout(() => this.close(4401, 'credential expired'), Math.max(0, result.expiresAt - Date.now())));
    }
  }

  private async start(id: string, request: unknown): Promise<void> {
    if (this.operations.has(id)) return this.close(4409, `Subscriber for ${id} already exists`);
    const session = this.session!;
    this.operations.set(id, () => {});
    const op = await this.backend.operation(session, request);
    if (!this.operations.has(id)) return;
    const data = this.protocol === 'graphql-ws' ? 'data' : 'next';
    if (typeof op === 'object') {
      this.operations.delete(id);
      if (this.protocol === 'graphql-ws') this.send({ id, type: 'data', payload: JSON.parse(op.error) });
      else this.send({ id, type: 'error', payload: (JSON.parse(op.error) as { errors: unknown[] }).errors });
      this.send({ id, type: 'complete' });
      return;
    }
    if (op !== 'subscription') {
      const text = await this.backend.execute(session, request);
      if (!this.operations.delete(id)) return;
      this.sendResult(id, data, text);
      this.send({ id, type: 'complete' });
      return;
    }
    const unsubscribe = await this.backend.subscribe(session, request, (text) => this.sendResult(id, data, text));
    // Stopped (or the connection closed) while it started.
    if (!this.operations.has(id)) return unsubscribe();
    this.operations.set(id, unsubscribe);
  }

  private stop(id: string): void {
    const stop = this.operations.get(id);
    this.operations.delete(id);
    stop?.();
  }

  onClose(): void {
    this.closed = true;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    for (const stop of this.operations.values()) stop();
    this.operations.clear();
  }
}
