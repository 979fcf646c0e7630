/**
 * A real action handler for tests: node:http answering POSTs by path with a function of the
 * request's JSON body and headers, recording each call. A route may delay its answer or answer
 * text that is not JSON.
 */
import http from 'node:http';
import { TestServer } from './listen.js';

export interface HandlerCall {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

export interface HandlerAnswer {
  status?: number;
  /** JSON-encoded unless `raw`. */
  body?: unknown;
  raw?: string;
  delayMs?: number;
  /** Response headers beside the content type (`set-cookie` as a list). */
  headers?: Record<string, string | string[]>;
}

export type Route = (body: any, headers: http.IncomingHttpHeaders) => HandlerAnswer | Promise<HandlerAnswer>;

export class ActionHandler extends TestServer {
  readonly calls: HandlerCall[] = [];

  constructor(readonly routes: Record<string, Route>) {
    super();
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Calls to one path. */
  callsTo(path: string): HandlerCall[] {
    return this.calls.filter((c) => c.path === path);
  }

  async start(port = this.port): Promise<this> {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = (req.url ?? '/').split('?')[0]!;
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          /* kept as text */
        }
        this.calls.push({ path, headers: req.headers, body });
        const route = this.routes[path];
        void Promise.resolve(route ? route(body, req.headers) : { status: 404, body: { message: 'no route' } }).then(async (a) => {
          if (a.delayMs) await new Promise((r) => setTimeout(r, a.delayMs));
          if (res.destroyed) return;
          res.writeHead(a.status ?? 200, { 'content-type': 'application/json', ...a.headers });
          res.end(a.raw ?? JSON.stringify(a.body ?? null));
        });
      });
    });
    await this.serve(server, port);
    return this;
  }
}
