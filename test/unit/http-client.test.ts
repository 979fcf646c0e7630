/**
 * The outgoing HTTP client against a local server: what it sends (the engine's user agent, the
 * body, a URL's credentials as basic authentication), the answer as callers read it (`set-cookie`
 * always a list, a repeated header joined or its first value kept, as node:http does),
 * connections kept alive, and its refusals: an answer past the size cap, no answer within the
 * deadline, an unreachable host.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/outgoing/http-client.js';
import { TlsAllowlist } from '../../src/outgoing/tls-allowlist.js';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let server: http.Server;
let base: string;
const seen: Seen[] = [];
let connections = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString() });
      if (req.url === '/slow') return setTimeout(() => res.end('late'), 2000);
      if (req.url === '/big') return res.end('x'.repeat(5000));
      res.setHeader('set-cookie', 'a=1');
      res.setHeader('x-many', ['1', '2']);
      res.setHeader('retry-after', ['5', '7']);
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const client = new HttpClient(1000, 1024, new TlsAllowlist());
afterAll(() => client.close());

describe('HttpClient', () => {
  it('sends the method, path, headers and body, and reads the answer as node:http gives it', async () => {
    const answer = await client.send(new URL(`${base}/hook?x=1`), { method: 'POST', headers: { 'content-type': 'application/json', 'x-custom': 'v' }, body: '{"a":1}' });
    expect(answer.status).toBe(201);
    expect(answer.body.toString()).toBe('{"ok":true}');
    expect(answer.headers['set-cookie']).toEqual(['a=1']);
    expect(answer.headers['x-many']).toBe('1, 2');
    expect(answer.headers['retry-after']).toBe('5');
    expect(answer.headers['content-type']).toBe('application/json');
    const got = seen.at(-1)!;
    expect(got).toMatchObject({ method: 'POST', url: '/hook?x=1', body: '{"a":1}' });
    expect(got.headers).toMatchObject({ 'user-agent': 'service-graphql-engine', 'x-custom': 'v', 'content-type': 'application/json', 'content-length': '7' });
  });

  it('keeps connections alive between calls', async () => {
    const before = connections;
    for (let i = 0; i < 20; i++) await client.send(new URL(`${base}/again`), { method: 'GET', headers: {} });
    // One call at a time: the connection of the call before is reused (at most one more while it goes back to the pool).
    expect(connections - before).toBeLessThanOrEqual(1);
  });

  it("sends a URL's credentials as basic authentication, unless the call sets its own", async () => {
    const url = new URL(base.replace('http://', 'http://us%40er:p%3Ass@') + '/auth');
    await client.send(url, { method: 'GET', headers: {} });
    expect(seen.at(-1)!.headers.authorization).toBe(`Basic ${Buffer.from('us@er:p:ss').toString('base64')}`);
    await client.send(url, { method: 'GET', headers: { Authorization: 'Bearer t' } });
    expect(seen.at(-1)!.headers.authorization).toBe('Bearer t');
  });

  it('refuses an answer past the size cap, an answer too late, and an unreachable host', async () => {
    await expect(client.send(new URL(`${base}/big`), { method: 'GET', headers: {} })).rejects.toThrow('the answer exceeds 1024 bytes');
    await expect(client.send(new URL(`${base}/slow`), { method: 'GET', headers: {} }, 200)).rejects.toThrow('no answer within 200 ms');
    await expect(client.send(new URL('http://127.0.0.1:1/'), { method: 'GET', headers: {} })).rejects.toThrow(/connect ECONNREFUSED 127\.0\.0\.1:1/);
    await expect(client.send(new URL('ftp://127.0.0.1/'), { method: 'GET', headers: {} })).rejects.toThrow('unsupported protocol ftp:');
  });

  it('answers a call still waiting for a connection at its deadline, and never sends it', async () => {
    const one = new HttpClient(5000, 1024, new TlsAllowlist(), 1);
    try {
      const slow = one.send(new URL(`${base}/slow`), { method: 'GET', headers: {} });
      const started = performance.now();
      await expect(one.send(new URL(`${base}/dropped`), { method: 'GET', headers: {} }, 200)).rejects.toThrow('no answer within 200 ms');
      expect(performance.now() - started).toBeLessThan(1500);
      expect((await slow).body.toString()).toBe('late');
      expect((await one.send(new URL(`${base}/after`), { method: 'GET', headers: {} })).status).toBe(201);
      expect(seen.map((s) => s.url)).not.toContain('/dropped');
    } finally {
      one.close();
    }
  });
});
