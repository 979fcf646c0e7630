/** The WebSocket protocol state machine over a fake peer: both sub-protocols, timers, backpressure. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Session } from '../../src/auth/session.js';
import { GraphQLWsConnection, type WsBackend } from '../../src/graphql/ws-connection.js';
import type { SendStatus, WsPeer } from '../../src/graphql/ws-outbox.js';
import type { WsProtocol } from '../../src/graphql/ws-protocol.js';

class FakePeer implements WsPeer {
  readonly sent: any[] = [];
  closed: { code: number; reason: string } | null = null;
  /** What the socket answers to the next sends, and what it holds. */
  status: SendStatus = 'sent';
  buffered = 0;

  send(text: string): SendStatus {
    this.sent.push(JSON.parse(text));
    if (this.status === 'buffered') this.buffered += text.length;
    return this.status;
  }
  cork(write: () => void): void {
    write();
  }
  bufferedBytes(): number {
    return this.buffered;
  }
  close(code: number, reason: string): void {
    this.closed = { code, reason };
  }
  /** The messages sent since the last call. */
  take(): any[] {
    return this.sent.splice(0);
  }
}

const session: Session = { role: 'user', variables: { 'x-service-role': 'user' }, isAdmin: false, useBackendOnlyPermissions: false };

/** A backend whose live queries the test pushes results into. */
function backend(overrides: Partial<WsBackend> = {}) {
  const subscribers = new Map<string, (text: string, latest: boolean) => void>();
  let subscriptions = 0;
  const b: WsBackend & { push(text: string, latest?: boolean): void; subscribers: typeof subscribers } = {
    authenticate: async (payload: any) => (payload?.headers?.token === 'bad' ? { status: 401, code: 'invalid-jwt', message: 'bad token' } : session),
    operation: async (_s, request: any) =>
      request.query.startsWith('subscription') ? 'subscription' : request.query.includes('nope') ? { error: '{"errors":[{"message":"no nope","extensions":{"path":"$","code":"validation-failed"}}]}' } : 'query',
    execute: async () => '{"data":{"x":1}}',
    subscribe: async (_session, _request, deliver) => {
      const key = String(++subscriptions);
      subscribers.set(key, deliver);
      return () => void subscribers.delete(key);
    },
    keepAliveMs: 1000,
    initTimeoutMs: 3000,
    subscribers,
    push: (text, latest = true) => [...subscribers.values()].forEach((s) => s(text, latest)),
    ...overrides,
  };
  return b;
}

function connect(protocol: WsProtocol, b = backend(), maxBufferedBytes = 1000) {
  const peer = new FakePeer();
  const conn = new GraphQLWsConnection(peer, protocol, b, maxBufferedBytes);
  const say = (m: unknown) => conn.onMessage(typeof m === 'string' ? m : JSON.stringify(m));
  return { peer, conn, b, say };
}

async function ready(protocol: WsProtocol, b = backend(), maxBufferedBytes = 1000) {
  const c = connect(protocol, b, maxBufferedBytes);
  await c.say({ type: 'connection_init', payload: {} });
  c.peer.take();
  return c;
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('graphql-transport-ws', () => {
  it('acknowledges, answers pings with their payload, runs a query and completes it', async () => {
    const { peer, say } = connect('graphql-transport-ws');
    await say({ type: 'connection_init', payload: { headers: {} } });
    await say({ type: 'ping', payload: { n: 1 } });
    await say({ id: 'q', type: 'subscribe', payload: { query: '{ x }' } });
    expect(peer.take()).toEqual([{ type: 'connection_ack' }, { type: 'pong', payload: { n: 1 } }, { id: 'q', type: 'next', payload: { data: { x: 1 } } }, { id: 'q', type: 'complete' }]);
  });

  it('answers a request that does not compile with one error message (its errors), no complete', async () => {
    const { peer, say } = await ready('graphql-transport-ws');
    await say({ id: 'e', type: 'subscribe', payload: { query: '{ nope }' } });
    expect(peer.take()).toEqual([{ id: 'e', type: 'error', payload: [{ message: 'no nope', extensions: { path: '$', code: 'validation-failed' } }] }]);
    expect(peer.closed).toBeNull();
  });

  it.each([
    ['invalid JSON', '{', 4400],
    ['no type', { id: 'a' }, 4400],
    ['an unknown type', { type: 'start', id: 'a', payload: { query: '{ x }' } }, 4400],
    ['no id', { type: 'subscribe', payload: { query: '{ x }' } }, 4400],
    ['no query', { type: 'subscribe', id: 'a', payload: {} }, 4400],
  ])('closes with 4400 on %s', async (_what, message, code) => {
    const { peer, say } = await ready('graphql-transport-ws');
    await say(message);
    expect(peer.closed?.code).toBe(code);
  });

  it('closes with 4401 on subscribe before connection_init, 4409 on a duplicate id', async () => {
    const early = connect('graphql-transport-ws');
    await early.say({ id: 'a', type: 'subscribe', payload: { query: '{ x }' } });
    expect(early.peer.closed).toEqual({ code: 4401, reason: 'Unauthorized' });

    const dup = await ready('graphql-transport-ws');
    await dup.say({ id: 's', type: 'subscribe', payload: { query: 'subscription { x }' } });
    await dup.say({ id: 's', type: 'subscribe', payload: { query: 'subscription { x }' } });
    expect(dup.peer.closed).toEqual({ code: 4409, reason: 'Subscriber for s already exists' });
    expect(dup.b.subscribers.size).toBe(0);
  });

  it('closes with 4403 when the credential is refused', async () => {
    const { peer, say } = connect('graphql-transport-ws');
    await say({ type: 'connection_init', payload: { headers: { token: 'bad' } } });
    expect(peer.take()).toEqual([]);
    expect(peer.closed).toEqual({ code: 4403, reason: 'bad token' });
  });

  it('closes with 4408 when connection_init does not come in time, and not after it came', async () => {
    const late = connect('graphql-transport-ws');
    vi.advanceTimersByTime(2999);
    expect(late.peer.closed).toBeNull();
    vi.advanceTimersByTime(1);
    expect(late.peer.closed).toEqual({ code: 4408, reason: 'Connection initialisation timeout' });

    const { peer } = await ready('graphql-transport-ws');
    vi.advanceTimersByTime(10_000);
    expect(peer.closed).toBeNull();
  });

  it('pings every keep-alive interval after the acknowledgement', async () => {
    const { peer } = await ready('graphql-transport-ws');
    vi.advanceTimersByTime(2500);
    expect(peer.take()).toEqual([
      { type: 'ping', payload: { message: 'keepalive' } },
      { type: 'ping', payload: { message: 'keepalive' } },
    ]);
  });

  it('closes with 4401 when the credential expires, even one expiring past the longest timer', async () => {
    const far = backend({ keepAliveMs: 3_600_000, authenticate: async () => ({ ...session, expiresAt: Date.now() + 40 * 86_400_000 }) });
    const { peer } = await ready('graphql-transport-ws', far);
    vi.advanceTimersByTime(30 * 86_400_000);
    expect(peer.closed).toBeNull();
    vi.advanceTimersByTime(10 * 86_400_000);
    expect(peer.closed).toEqual({ code: 4401, reason: 'credential expired' });
  });

  it('stops a subscription completed while it was starting, and sends nothing for it', async () => {
    let started!: () => void;
    const slow = backend();
    const subscribe = slow.subscribe;
    slow.subscribe = async (session, request, deliver, connection) => {
      const stop = await subscribe(session, request, deliver, connection);
      await new Promise<void>((resolve) => (started = resolve));
      // The first result comes as the subscription starts, after the client completed it.
      deliver('{"data":{"x":0}}', true);
      return stop;
    };
    const { peer, say } = await ready('graphql-transport-ws', slow);
    const subscribing = say({ id: 's', type: 'subscribe', payload: { query: 'subscription { x }' } });
    await vi.waitFor(() => expect(slow.subscribers.size).toBe(1));
    await say({ id: 's', type: 'complete' });
    started();
    await subscribing;
    expect(slow.subscribers.size).toBe(0);
    expect(peer.take()).toEqual([]);
  });

  it('stops a subscription on complete', async () => {
    const { peer, say, b } = await ready('graphql-transport-ws');
    await say({ id: 's', type: 'subscribe', payload: { query: 'subscription { x }' } });
    b.push('{"data":{"x":2}}');
    await say({ id: 's', type: 'complete' });
    b.push('{"data":{"x":3}}');
    expect(peer.take()).toEqual([{ id: 's', type: 'next', payload: { data: { x: 2 } } }]);
    expect(b.subscribers.size).toBe(0);
  });
});

/** A backend whose sessions are named by the `connection_init` payload's `role`, and whose operations record the session they ran with. */
function roleBackend() {
  const ran: string[] = [];
  const inits: boolean[] = [];
  const b = backend({
    authenticate: async (payload: any, first) => {
      inits.push(first);
      return payload?.role === 'bad' ? { status: 401, code: 'invalid-jwt', message: 'bad token' } : { ...session, role: payload?.role ?? 'user', ...(payload?.expiresAt ? { expiresAt: payload.expiresAt } : {}) };
    },
    execute: async (s) => (ran.push(s.role), `{"data":{"role":"${s.role}"}}`),
  });
  const subscribe = b.subscribe;
  b.subscribe = (s, request, deliver, connection) => (ran.push(s.role), subscribe(s, request, deliver, connection));
  return Object.assign(b, { ran, inits });
}

describe.each([
  ['graphql-transport-ws', 'subscribe', 'next'],
  ['graphql-ws', 'start', 'data'],
] as const)('a second connection_init (%s)', (protocol, start, result) => {
  it('is authenticated again (not as the first) and acknowledged; later operations get its session, running ones keep theirs', async () => {
    const b = roleBackend();
    const { peer, say } = connect(protocol, b);
    await say({ type: 'connection_init', payload: { role: 'one' } });
    await say({ id: 's', type: start, payload: { query: 'subscription { x }' } });
    await say({ type: 'connection_init', payload: { role: 'two' } });
    await say({ id: 'q', type: start, payload: { query: '{ x }' } });
    expect(b.inits).toEqual([true, false]);
    expect(b.ran).toEqual(['one', 'two']);
    const acks = peer.take().filter((m) => m.type === 'connection_ack');
    expect(acks).toHaveLength(2);
    // The subscription started before is still delivered.
    b.push('{"data":{"x":7}}');
    expect(peer.take()).toEqual([{ id: 's', type: result, payload: { data: { x: 7 } } }]);
    expect(peer.closed).toBeNull();
  });

  it('holds messages sent behind it until it is answered', async () => {
    const b = roleBackend();
    let admit!: () => void;
    const { peer, say } = await ready(protocol, b);
    const authenticate = b.authenticate;
    b.authenticate = (payload, first) => new Promise((resolve) => (admit = () => resolve(authenticate(payload, first))));
    const init = say({ type: 'connection_init', payload: { role: 'two' } });
    const query = say({ id: 'q', type: start, payload: { query: '{ x }' } });
    admit();
    await Promise.all([init, query]);
    expect(b.ran).toEqual(['two']);
    expect(peer.take().filter((m) => m.type !== 'ka')).toEqual([{ type: 'connection_ack' }, { id: 'q', type: result, payload: { data: { role: 'two' } } }, { id: 'q', type: 'complete' }]);
  });

  it('refused, ends the connection as a refused first one does', async () => {
    const b = roleBackend();
    const { peer, say } = await ready(protocol, b);
    await say({ id: 's', type: start, payload: { query: 'subscription { x }' } });
    await say({ type: 'connection_init', payload: { role: 'bad' } });
    expect(peer.take()).toEqual(protocol === 'graphql-ws' ? [{ type: 'connection_error', payload: { message: 'bad token', extensions: { path: '$', code: 'invalid-jwt' } } }] : []);
    expect(peer.closed).toEqual({ code: 4403, reason: 'bad token' });
    expect(b.subscribers.size).toBe(0);
  });

  it('replaces the credential expiry, and keeps one keep-alive interval', async () => {
    const b = roleBackend();
    const { peer, say } = connect(protocol, b);
    await say({ type: 'connection_init', payload: { expiresAt: Date.now() + 5000 } });
    await say({ type: 'connection_init', payload: {} });
    peer.take();
    vi.advanceTimersByTime(10_000);
    expect(peer.closed).toBeNull();
    expect(peer.take()).toHaveLength(10);
    await say({ type: 'connection_init', payload: { expiresAt: Date.now() + 5000 } });
    vi.advanceTimersByTime(5000);
    expect(peer.closed).toEqual({ code: 4401, reason: 'credential expired' });
  });
});

describe('graphql-ws (legacy)', () => {
  it('answers an unknown or malformed message with connection_error and stays open', async () => {
    const { peer, say } = await ready('graphql-ws');
    await say({ type: 'subscribe', id: '1', payload: { query: '{ x }' } });
    await say('not json');
    await say({ type: 'start', payload: { query: '{ x }' } });
    const errors = peer.take();
    expect(errors.map((m) => m.type)).toEqual(['connection_error', 'connection_error', 'connection_error']);
    expect(errors[0].payload).toEqual({ message: 'unexpected message type "subscribe"', extensions: { path: '$', code: 'parse-failed' } });
    expect(peer.closed).toBeNull();
    await say({ id: '1', type: 'start', payload: { query: '{ x }' } });
    expect(peer.take()).toEqual([{ id: '1', type: 'data', payload: { data: { x: 1 } } }, { id: '1', type: 'complete' }]);
  });

  it('takes a start sent right behind connection_init once the connection is acknowledged', async () => {
    let admit!: (s: Session) => void;
    const { peer, say } = connect('graphql-ws', backend({ authenticate: () => new Promise((resolve) => (admit = resolve)) }));
    const init = say({ type: 'connection_init' });
    const start = say({ id: '1', type: 'start', payload: { query: '{ x }' } });
    const stop = say({ id: '1', type: 'stop' });
    const again = say({ id: '2', type: 'start', payload: { query: '{ x }' } });
    admit(session);
    await Promise.all([init, start, stop, again]);
    expect(peer.take()).toEqual([{ type: 'connection_ack' }, { type: 'ka' }, { id: '2', type: 'data', payload: { data: { x: 1 } } }, { id: '2', type: 'complete' }]);
  });

  it('sends ka at the acknowledgement and every interval', async () => {
    const { peer, say } = connect('graphql-ws');
    await say({ type: 'connection_init', payload: {} });
    vi.advanceTimersByTime(2000);
    expect(peer.take()).toEqual([{ type: 'connection_ack' }, { type: 'ka' }, { type: 'ka' }, { type: 'ka' }]);
  });

  it('answers start before connection_init and a duplicate id with error and complete, keeping the first operation', async () => {
    const { peer, say } = connect('graphql-ws');
    await say({ id: '1', type: 'start', payload: { query: '{ x }' } });
    expect(peer.take()).toEqual([
      { id: '1', type: 'error', payload: { errors: [{ message: 'start received before the connection is initialised', extensions: { path: '$', code: 'start-failed' } }] } },
      { id: '1', type: 'complete' },
    ]);
    await say({ type: 'connection_init' });
    peer.take();
    const started = backend();
    const c = await ready('graphql-ws', started);
    await c.say({ id: 's', type: 'start', payload: { query: 'subscription { x }' } });
    await c.say({ id: 's', type: 'start', payload: { query: 'subscription { x }' } });
    expect(c.peer.take()).toEqual([
      { id: 's', type: 'error', payload: { errors: [{ message: 'an operation already exists with this id: s', extensions: { path: '$', code: 'start-failed' } }] } },
      { id: 's', type: 'complete' },
    ]);
    started.push('{"data":{"x":5}}');
    expect(c.peer.take()).toEqual([{ id: 's', type: 'data', payload: { data: { x: 5 } } }]);
  });

  it('answers a request that does not compile with error (the response) and complete', async () => {
    const { peer, say } = await ready('graphql-ws');
    await say({ id: 'e', type: 'start', payload: { query: '{ nope }' } });
    expect(peer.take()).toEqual([
      { id: 'e', type: 'error', payload: { errors: [{ message: 'no nope', extensions: { path: '$', code: 'validation-failed' } }] } },
      { id: 'e', type: 'complete' },
    ]);
  });

  it('refuses a bad credential with connection_error then 4403', async () => {
    const bad = connect('graphql-ws');
    await bad.say({ type: 'connection_init', payload: { headers: { token: 'bad' } } });
    expect(bad.peer.take()).toEqual([{ type: 'connection_error', payload: { message: 'bad token', extensions: { path: '$', code: 'invalid-jwt' } } }]);
    expect(bad.peer.closed?.code).toBe(4403);
  });

  it('closes on connection_terminate and after the init timeout', async () => {
    const { peer, say } = await ready('graphql-ws');
    await say({ type: 'connection_terminate' });
    expect(peer.closed?.code).toBe(1000);
    const late = connect('graphql-ws');
    vi.advanceTimersByTime(3000);
    expect(late.peer.closed?.code).toBe(4408);
  });
});

describe('backpressure', () => {
  it('keeps only the newest live result per operation while the socket is congested, and sends it when it drains', async () => {
    const { peer, say, b, conn } = await ready('graphql-transport-ws', backend(), 10_000);
    await say({ id: 's', type: 'subscribe', payload: { query: 'subscription { x }' } });
    peer.status = 'buffered';
    b.push('{"data":{"x":1}}');
    peer.status = 'sent';
    for (let i = 2; i <= 50; i++) b.push(`{"data":{"x":${i}}}`);
    expect(peer.take()).toEqual([{ id: 's', type: 'next', payload: { data: { x: 1 } } }]);
    conn.onDrain();
    expect(peer.take()).toEqual([]);
    peer.buffered = 0;
    conn.onDrain();
    expect(peer.take()).toEqual([{ id: 's', type: 'next', payload: { data: { x: 50 } } }]);
    b.push('{"data":{"x":51}}');
    expect(peer.take()).toEqual([{ id: 's', type: 'next', payload: { data: { x: 51 } } }]);
  });

  it('sends the kept result with the next one when the socket emptied without telling', async () => {
    const { peer, say, b } = await ready('graphql-transport-ws', backend(), 10_000);
    await say({ id: 's', type: 'subscribe', payload: { query: 'subscription { x }' } });
    peer.status = 'buffered';
    b.push('{"data":{"x":1}}');
    b.push('{"data":{"x":2}}');
    peer.take();
    peer.status = 'sent';
    peer.buffered = 0;
    b.push('{"data":{"x":3}}');
    expect(peer.take()).toEqual([{ id: 's', type: 'next', payload: { data: { x: 3 } } }]);
  });

  it("keeps every batch of a streaming subscription while congested, after the operation's kept result", async () => {
    const { peer, say, b, conn } = await ready('graphql-transport-ws', backend(), 10_000);
    await say({ id: 's', type: 'subscribe', payload: { query: 'subscription { x }' } });
    peer.take();
    peer.status = 'buffered';
    b.push('{"data":{"x":1}}');
    b.push('{"data":{"x":2}}');
    b.push('{"data":{"rows":[3]}}', false);
    b.push('{"data":{"rows":[4]}}', false);
    peer.buffered = 0;
    peer.status = 'sent';
    conn.onDrain();
    expect(peer.take()).toEqual([
      { id: 's', type: 'next', payload: { data: { x: 1 } } },
      { id: 's', type: 'next', payload: { data: { x: 2 } } },
      { id: 's', type: 'next', payload: { data: { rows: [3] } } },
      { id: 's', type: 'next', payload: { data: { rows: [4] } } },
    ]);
  });

  it('drops the kept result of an operation that is stopped', async () => {
    const { peer, say, b, conn } = await ready('graphql-transport-ws', backend(), 10_000);
    await say({ id: 's', type: 'subscribe', payload: { query: 'subscription { x }' } });
    peer.status = 'buffered';
    b.push('{"data":{"x":1}}');
    b.push('{"data":{"x":2}}');
    await say({ id: 's', type: 'complete' });
    peer.take();
    peer.buffered = 0;
    peer.status = 'sent';
    conn.onDrain();
    expect(peer.take()).toEqual([]);
  });

  it('closes with 1008 past the byte bound, and when the socket drops a message', async () => {
    const { peer, say } = await ready('graphql-transport-ws', backend(), 200);
    peer.status = 'buffered';
    for (let i = 0; i < 10 && !peer.closed; i++) await say({ id: `q${i}`, type: 'subscribe', payload: { query: '{ x }' } });
    expect(peer.closed).toEqual({ code: 1008, reason: 'client is not reading fast enough' });
    expect(peer.buffered).toBeLessThan(200 + 100);

    const dropped = await ready('graphql-transport-ws');
    dropped.peer.status = 'dropped';
    await dropped.say({ type: 'ping' });
    expect(dropped.peer.closed?.code).toBe(1008);
  });
});
