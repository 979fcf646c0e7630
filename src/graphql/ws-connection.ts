/**
 * One GraphQL WebSocket connection, in either sub-protocol (`ws-protocol.ts`), as a state
 * machine over a `WsPeer` (no socket here: `http/websocket.ts` is the uWebSockets.js side).
 * The session is decided at `connection_init`, and again at each later one (operations keep
 * the session they started with); the connection closes when its credential expires, when
 * `connection_init` does not come in time, and when the client does not read (`ws-outbox.ts`).
 * Protocol choices where the spec is silent: docs/behaviour.md "WebSocket protocols".
 */
import { randomUUID } from 'node:crypto';
import type { AuthFailure } from '../auth/failure.js';
import type { Session } from '../auth/session.js';
import { logger } from '../log.js';
import { isObject } from '../util/decode.js';
import type { Corkable, Deliver } from '../actors/multiplexer/client.js';
import { Outbox, type WsPeer } from './ws-outbox.js';
import { CloseCode, VOCABULARY, type ProtocolVocabulary, type WsProtocol } from './ws-protocol.js';
import { endSpan, SpanKind, traces, within, type Context, type Span } from '../observability/traces/tracer.js';
import { firstError } from '../observability/logs/graphql-operation.js';
import { writeWsAnswerLog, writeWsOperationLog, type WsOperationInfo } from '../observability/logs/websocket-log.js';

const log = logger('websocket-log');

export interface WsBackend {
  /** `first`: the connection's first `connection_init`, the only one that may read the upgrade request's headers. */
  authenticate(payload: unknown, first: boolean): Promise<Session | AuthFailure>;
  operation(session: Session, request: unknown): Promise<'query' | 'mutation' | 'subscription' | { error: string }>;
  execute(session: Session, request: unknown): Promise<string>;
  /** Starts a subscription whose results are written on `connection`; returns how to stop it. */
  subscribe(session: Session, request: unknown, deliver: Deliver, connection: Corkable): Promise<() => void>;
  keepAliveMs: number;
  /** How long the socket may stay open without `connection_init`. */
  initTimeoutMs: number;
  /** The trace the upgrade request's headers continue (read only while tracing). */
  callerTrace?(): Context;
}

type State = 'waiting' | 'initialising' | 'ready';

interface Operation {
  stop(): void;
  /** What its `websocket-log` lines say of it. */
  log: WsOperationInfo;
}

/** The longest delay a Node timer takes (a longer one fires at once). */
const MAX_TIMER_MS = 2 ** 31 - 1;

const isFailure = (r: Session | AuthFailure): r is AuthFailure => 'status' in r && 'code' in r;

/** The well-known engine's words when it closes its sockets at shutdown. */
const SHUTTING_DOWN = 'shutting server down';

export class GraphQLWsConnection {
  /** The connection's id in its `websocket-log` lines. */
  private readonly id = randomUUID();
  private state: State = 'waiting';
  /** The latest `connection_init`'s authentication. */
  private initialising: Promise<void> = Promise.resolve();
  private session: Session | null = null;
  private readonly operations = new Map<string, Operation>();
  private readonly timers: NodeJS.Timeout[] = [];
  /** When the current session's credential expires (a later `connection_init` replaces it). */
  private expiry: NodeJS.Timeout | undefined;
  private readonly outbox: Outbox;
  private readonly vocabulary: ProtocolVocabulary;
  private readonly legacy: boolean;
  private closed = false;
  /** The messages being handled (`goAway` lets them end). */
  private readonly handling = new Set<Promise<void>>();
  private goingAway = false;

  constructor(
    private readonly peer: WsPeer,
    protocol: WsProtocol,
    private readonly backend: WsBackend,
    maxBufferedBytes: number,
  ) {
    this.vocabulary = VOCABULARY[protocol];
    this.legacy = protocol === 'graphql-ws';
    this.outbox = new Outbox(peer, maxBufferedBytes, () => this.slowClient());
    this.timers.push(
      setTimeout(() => {
        if (this.state === 'waiting') this.close(CloseCode.InitTimeout, 'Connection initialisation timeout');
      }, backend.initTimeoutMs),
    );
  }

  onMessage(text: string): Promise<void> {
    if (this.closed || this.goingAway) return Promise.resolve();
    const p = this.handle(text).finally(() => this.handling.delete(p));
    this.handling.add(p);
    return p;
  }

  /**
   * The engine stops (docs/operations.md "Graceful shutdown"): no message is read from now on,
   * the queries and mutations under way are answered (until `deadline`), then the subscriptions end and the socket
   * closes with 1001, so that clients reconnect (elsewhere) and subscribe again. Nothing ends an
   * operation on the client's side (a `complete` would end it for good); the legacy protocol is
   * told why first with a `connection_error`. The well-known engine closes with 1012 and no
   * message (docs/behaviour.md "Graceful shutdown").
   */
  async goAway(deadline: number): Promise<void> {
    this.goingAway = true;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...this.handling]), new Promise((r) => (timer = setTimeout(r, Math.max(0, deadline - Date.now()))))]);
    clearTimeout(timer);
    if (this.closed) return;
    if (this.legacy) this.connectionError(SHUTTING_DOWN, 'shutting-down');
    this.close(CloseCode.GoingAway, SHUTTING_DOWN);
  }

  private async handle(text: string): Promise<void> {
    try {
      // Messages after connection_init wait for its answer, in order: Apollo clients send `start`
      // right behind it, and upstream takes a connection's messages one at a time. A message
      // that waited may find another connection_init (one that waited before it) started meanwhile.
      while (this.state === 'initialising') await this.initialising;
      await this.dispatch(text);
    } catch (e) {
      log.error('websocket message failed', { error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
      this.close(CloseCode.InternalError, 'Internal server error');
    }
  }

  /** The socket wrote some of what it held. */
  onDrain(): void {
    if (!this.closed) this.outbox.drain();
  }

  onClose(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.length = 0;
    clearTimeout(this.expiry);
    for (const op of this.operations.values()) op.stop();
    this.operations.clear();
  }

  private async dispatch(text: string): Promise<void> {
    let m: unknown;
    try {
      m = JSON.parse(text);
    } catch (e) {
      return this.invalid(`invalid JSON: ${(e as Error).message}`);
    }
    if (!isObject(m) || typeof m.type !== 'string') return this.invalid('a message must be an object with a string "type"');
    const { start, stop } = this.vocabulary;
    switch (m.type) {
      case 'connection_init':
        this.initialising = this.init(m.payload);
        return this.initialising;
      case 'ping':
        return this.send(m.payload === undefined ? { type: 'pong' } : { type: 'pong', payload: m.payload });
      case 'pong':
        return;
      case start: {
        const id = this.operationId(m);
        if (id === null) return;
        // The query may be left out for a persisted query's hash (`extensions.persistedQuery`): the request reader checks that.
        if (!isObject(m.payload) || (typeof m.payload.query !== 'string' && !isObject(m.payload.extensions))) return this.invalid(`"${start}" needs a "payload" object with a string "query"`);
        return this.start(id, m.payload);
      }
      case stop: {
        const id = this.operationId(m);
        if (id !== null) this.stop(id);
        return;
      }
      case 'connection_terminate':
        if (this.legacy) return this.close(CloseCode.Normal, 'connection_terminate received');
    }
    return this.invalid(`unexpected message type ${JSON.stringify(m.type)}`);
  }

  private operationId(m: Record<string, unknown>): string | null {
    if (typeof m.id === 'string' && m.id !== '') return m.id;
    this.invalid(`"${String(m.type)}" needs a non-empty string "id"`);
    return null;
  }

  /** A message the protocol does not allow: the legacy protocol answers it and stays open. */
  private invalid(message: string): void {
    if (this.legacy) this.connectionError(message, 'parse-failed');
    else this.close(CloseCode.BadRequest, message);
  }

  private connectionError(message: string, code: string): void {
    this.send({ type: 'connection_error', payload: { message, extensions: { path: '$', code } } });
  }

  /**
   * A later `connection_init` authenticates again from its own payload (upstream reads the
   * upgrade request's headers at the first only) and is acknowledged: operations started from
   * then on run with the new session, running ones keep theirs. Refused, it ends the connection
   * as a refused first one does. This is upstream's answer on both protocols; graphql-transport-ws's
   * PROTOCOL.md asks for close 4429 instead.
   */
  private async init(payload: unknown): Promise<void> {
    const first = this.session === null;
    this.state = 'initialising';
    const result = await this.backend.authenticate(payload, first);
    if (this.closed) return;
    if (isFailure(result)) {
      if (this.legacy) this.connectionError(result.message, result.code);
      return this.close(CloseCode.Forbidden, result.message);
    }
    this.session = result;
    this.state = 'ready';
    this.send({ type: 'connection_ack' });
    if (this.vocabulary.keepAliveAtAck) this.keepAlive();
    if (first) this.timers.push(setInterval(() => this.keepAlive(), this.backend.keepAliveMs));
    // Spec "Authentication" 10: the connection lives as long as its (latest) credential.
    clearTimeout(this.expiry);
    this.expiry = undefined;
    if (result.expiresAt !== undefined) this.expireAt(result.expiresAt);
  }

  /**
   * Written even behind results the client has not read yet: a legacy client that reads slowly
   * closes itself when no `ka` comes for 30 s, and a client that never reads meets the byte bound.
   */
  private keepAlive(): void {
    this.write(this.vocabulary.keepAlive);
  }

  private expireAt(time: number): void {
    const wait = time - Date.now();
    if (wait <= 0) return this.close(CloseCode.Unauthorized, 'credential expired');
    this.expiry = setTimeout(() => this.expireAt(time), Math.min(wait, MAX_TIMER_MS));
  }

  /** An operation, in a span of its own while tracing (its plan, statements and calls are spans in it). */
  private async start(id: string, request: Record<string, unknown>): Promise<void> {
    const span = traces.enabled ? traces.start('websocket operation', this.backend.callerTrace?.(), SpanKind.SERVER, { 'graphql.operation.id': id }) : undefined;
    if (!span) return this.startOperation(id, request, undefined);
    try {
      await this.startOperation(id, request, span);
      endSpan(span);
    } catch (e) {
      endSpan(span, e);
      throw e;
    }
  }

  private async startOperation(id: string, request: Record<string, unknown>, span: Span | undefined): Promise<void> {
    if (this.state !== 'ready') {
      if (this.legacy) return this.startFailed(id, request, 'start received before the connection is initialised');
      return this.close(CloseCode.Unauthorized, 'Unauthorized');
    }
    if (this.operations.has(id)) {
      if (this.legacy) return this.startFailed(id, request, `an operation already exists with this id: ${id}`);
      return this.close(CloseCode.SubscriberAlreadyExists, `Subscriber for ${id} already exists`);
    }
    // Each operation is a request of its own: its id is in its log lines, query-log's included.
    const log = this.operationLog(id, request);
    const session = { ...this.session!, requestId: log.requestId, ...(span && { trace: within(span) }) };
    const op: Operation = { stop: () => {}, log };
    this.operations.set(id, op);
    writeWsOperationLog(log, { type: 'started' });
    const kind = await this.backend.operation(session, request);
    // Stopped meanwhile (or the connection closed).
    if (this.operations.get(id) !== op) return;
    if (typeof kind === 'object') {
      this.operations.delete(id);
      writeWsOperationLog(log, { type: 'query_err', detail: firstError(kind.error) });
      return this.operationError(id, kind.error);
    }
    span?.setAttribute('graphql.operation.type', kind);
    if (kind !== 'subscription') {
      const text = await this.backend.execute(session, request);
      if (this.operations.get(id) !== op) return;
      this.operations.delete(id);
      this.write(this.resultFrame(id, text));
      this.send({ id, type: 'complete' });
      return writeWsAnswerLog(log, text);
    }
    const unsubscribe = await this.backend.subscribe(
      session,
      request,
      (text, latest) => {
        if (this.operations.get(id) !== op) return;
        if (latest) return this.outbox.sendLatest(id, this.resultFrame(id, text));
        // A stream's batch or an error must arrive, after what was kept for the operation.
        this.outbox.sendAfterKept(id, this.resultFrame(id, text));
      },
      this.peer,
    );
    // Stopped (or the connection closed) while it started.
    if (this.operations.get(id) !== op) return unsubscribe();
    op.stop = () => {
      unsubscribe();
      this.outbox.forget(id);
    };
  }

  /** A result message around the response text, spliced unparsed (results can be large). */
  private resultFrame(id: string, text: string): string {
    return `{"id":${JSON.stringify(id)},"type":"${this.vocabulary.result}","payload":${text}}`;
  }

  /** A request that does not compile: `error` (the legacy payload is the response, the new one its errors). */
  private operationError(id: string, body: string): void {
    if (!this.legacy) return this.send({ id, type: 'error', payload: (JSON.parse(body) as { errors: unknown[] }).errors });
    this.write(`{"id":${JSON.stringify(id)},"type":"error","payload":${body}}`);
    this.send({ id, type: 'complete' });
  }

  /** The legacy protocol's answer to a `start` it cannot take (upstream's `start-failed`, logged as a protocol error). */
  private startFailed(id: string, request: Record<string, unknown>, message: string): void {
    writeWsOperationLog(this.operationLog(id, request), { type: 'proto_err', detail: message });
    this.operationError(id, JSON.stringify({ errors: [{ message, extensions: { path: '$', code: 'start-failed' } }] }));
  }

  private operationLog(operationId: string, request: Record<string, unknown>): WsOperationInfo {
    return { websocketId: this.id, requestId: randomUUID(), operationId, request, userVars: this.session?.variables ?? null, expiresAt: this.session?.expiresAt };
  }

  private stop(id: string): void {
    const op = this.operations.get(id);
    if (!op) return;
    this.operations.delete(id);
    op.stop();
    writeWsOperationLog(op.log, { type: 'stopped' });
  }

  private send(message: Record<string, unknown>): void {
    this.write(JSON.stringify(message));
  }

  private write(text: string): void {
    if (!this.closed) this.outbox.send(text);
  }

  private slowClient(): void {
    log.warn('websocket closed: the client is not reading fast enough', { bufferedBytes: this.peer.bufferedBytes() });
    this.close(CloseCode.SlowClient, 'client is not reading fast enough');
  }

  private close(code: number, reason: string): void {
    if (this.closed) return;
    this.onClose();
    this.peer.close(code, reason);
  }
}
