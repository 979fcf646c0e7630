/**
 * The outgoing HTTP client of authentication (webhook calls, JWK set fetches): keep-alive
 * agents so a busy engine reuses connections instead of opening one per request, an overall
 * deadline per call, and a cap on the answer's size so a broken peer cannot exhaust memory.
 */
import http from 'node:http';
import https from 'node:https';

export interface OutgoingRequest {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

export interface IncomingAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

const MAX_SOCKETS_PER_HOST = 64;
/** Every call names the engine, never the client's agent (as the well-known engine does). */
const USER_AGENT = 'service-graphql-engine';

export class HttpClient {
  private readonly http = new http.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS_PER_HOST });
  private readonly https = new https.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS_PER_HOST });

  constructor(
    private readonly timeoutMs: number,
    private readonly maxBodyBytes: number,
  ) {}

  /** Rejects with an `Error` saying what went wrong (unreachable, timeout, answer too large). */
  send(url: URL, request: OutgoingRequest): Promise<IncomingAnswer> {
    const transport = url.protocol === 'https:' ? { request: https.request, agent: this.https } : { request: http.request, agent: this.http };
    return new Promise((resolve, reject) => {
      const req = transport.request(url, { method: request.method, headers: { ...request.headers, 'user-agent': USER_AGENT }, agent: transport.agent }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > this.maxBodyBytes) req.destroy(new Error(`the answer exceeds ${this.maxBodyBytes} bytes`));
          else chunks.push(chunk);
        });
        res.on('end', () => {
          clearTimeout(deadline);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
        });
        res.on('error', fail);
      });
      const deadline = setTimeout(() => req.destroy(new Error(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
      const fail = (e: Error) => {
        clearTimeout(deadline);
        reject(e);
      };
      req.on('error', fail);
      req.end(request.body);
    });
  }

  close(): void {
    this.http.destroy();
    this.https.destroy();
  }
}
