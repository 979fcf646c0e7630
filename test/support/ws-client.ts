/** A minimal WebSocket client for the tests (RFC 6455 text frames, masked), over node:http upgrade. */
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import type { Socket } from 'node:net';

export interface WsClient {
  protocol: string | undefined;
  send(message: unknown): void;
  /** The next message (parsed JSON), or `{closed: code}` when the server closed. */
  next(timeoutMs?: number): Promise<any>;
  /** Stops reading from the socket (a client that does not keep up), and reads again. */
  pause(): void;
  resume(): void;
  close(): void;
}

/** A masked client frame (payload under 64 KiB). */
export function clientFrame(op: number, data: Buffer): Buffer {
  const mask = randomBytes(4);
  const head = data.length < 126 ? Buffer.from([0x80 | op, 0x80 | data.length]) : Buffer.from([0x80 | op, 0x80 | 126, data.length >> 8, data.length & 0xff]);
  const body = Buffer.from(data.map((b, i) => b ^ mask[i % 4]!));
  return Buffer.concat([head, mask, body]);
}

export function connectWs(url: string, protocol: string, headers: Record<string, string> = {}): Promise<WsClient> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = request({
      hostname: u.hostname,
      port: u.port,
      path: u.pathname,
      headers: { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Key': randomBytes(16).toString('base64'), 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Protocol': protocol, ...headers },
    });
    req.on('error', reject);
    req.on('response', (res) => reject(new Error(`upgrade refused: HTTP ${res.statusCode}`)));
    req.on('upgrade', (res, socket: Socket) => {
      const queue: any[] = [];
      const waiters: ((m: any) => void)[] = [];
      const deliver = (m: any) => (waiters.length ? waiters.shift()!(m) : queue.push(m));
      let buf = Buffer.alloc(0);
      socket.on('data', (d: Buffer) => {
        buf = Buffer.concat([buf, d]);
        for (;;) {
          if (buf.length < 2) return;
          const op = buf[0]! & 0x0f;
          let len = buf[1]! & 0x7f;
          let off = 2;
          if (len === 126) {
            if (buf.length < 4) return;
            len = buf.readUInt16BE(2);
            off = 4;
          } else if (len === 127) {
            if (buf.length < 10) return;
            len = Number(buf.readBigUInt64BE(2));
            off = 10;
          }
          if (buf.length < off + len) return;
          const payload = buf.subarray(off, off + len);
          buf = buf.subarray(off + len);
          if (op === 0x1) deliver(JSON.parse(payload.toString('utf8')));
          else if (op === 0x8) deliver({ closed: payload.length >= 2 ? payload.readUInt16BE(0) : 1005, reason: payload.subarray(2).toString('utf8') });
        }
      });
      socket.on('close', () => deliver({ closed: 1006 }));
      const frame = (op: number, data: Buffer) => socket.write(clientFrame(op, data));
      resolve({
        protocol: res.headers['sec-websocket-protocol'] as string | undefined,
        send: (m) => frame(0x1, Buffer.from(JSON.stringify(m))),
        next: (timeoutMs = 5000) =>
          queue.length
            ? Promise.resolve(queue.shift())
            : new Promise((ok, fail) => {
                const t = setTimeout(() => fail(new Error('no message within timeout')), timeoutMs);
                waiters.push((m) => {
                  clearTimeout(t);
                  ok(m);
                });
              }),
        pause: () => socket.pause(),
        resume: () => socket.resume(),
        close: () => {
          try {
            frame(0x8, Buffer.from([0x03, 0xe8]));
          } catch {
            /* already closed */
          }
          socket.end();
        },
      });
    });
    req.end();
  });
}

/** The next message of a type (keep-alives skipped), or the close; anything else fails. */
export async function nextOf(ws: WsClient, type: string, timeoutMs = 5000): Promise<any> {
  for (;;) {
    const m = await ws.next(timeoutMs);
    if (m.type === 'ka' || m.type === 'ping') continue;
    if (m.type === type || m.closed) return m;
    throw new Error(`expected ${type}, got ${JSON.stringify(m).slice(0, 300)}`);
  }
}
