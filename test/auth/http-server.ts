/** A real HTTP (or, given a key and certificate, HTTPS) server for the auth tests: records every call and answers as the test says. */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

export interface RecordedCall {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Answer {
  status: number;
  headers?: Record<string, string | string[]>;
  body?: string;
  /** Wait this long before answering (to exceed a timeout). */
  delayMs?: number;
}

export interface TestServer {
  url: string;
  calls: RecordedCall[];
  answer: (call: RecordedCall) => Answer;
  close(): Promise<void>;
}

export async function startServer(answer: (call: RecordedCall) => Answer, tls?: { key: string; cert: string }): Promise<TestServer> {
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const call = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      state.calls.push(call);
      const a = state.answer(call);
      setTimeout(() => {
        if (res.destroyed) return;
        res.writeHead(a.status, a.headers);
        res.end(a.body ?? '');
      }, a.delayMs ?? 0);
    });
  };
  const server = tls ? createTlsServer(tls, handle) : createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const state: TestServer = {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}/auth`,
    calls: [],
    answer,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return state;
}

export const json = (status: number, body: unknown, headers: Record<string, string | string[]> = {}): Answer => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});
