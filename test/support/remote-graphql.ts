/**
 * A real remote GraphQL server for tests: node:http answering POSTs with graphql-js's
 * `graphql()` over a schema built from SDL and root values, recording each request's headers
 * and body. It can be stopped and started again on the same port (a remote that goes away), or
 * made to answer a given body (`answer`: one that is not a GraphQL response).
 */
import http from 'node:http';
import { TestServer } from './listen.js';
import type { AddressInfo } from 'node:net';
import { buildSchema, graphql, type GraphQLSchema } from 'graphql';

export interface RemoteCall {
  headers: http.IncomingHttpHeaders;
  query: string;
  variables: Record<string, unknown> | undefined;
}

export class RemoteGraphQL extends TestServer {
  readonly calls: RemoteCall[] = [];
  /** When set, the raw body (status 200) of every answer but introspection's: a broken server. */
  answer: ((call: RemoteCall) => string) | null = null;
  /** Headers of every answer but introspection's (`set-cookie` as a list). */
  responseHeaders: Record<string, string | string[]> = {};
  private readonly schema: GraphQLSchema;

  constructor(
    sdl: string,
    private readonly root: Record<string, unknown>,
  ) {
    super();
    this.schema = buildSchema(sdl);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/graphql`;
  }

  /** Calls other than introspection. */
  queries(): RemoteCall[] {
    return this.calls.filter((c) => !c.query.includes('__schema'));
  }

  async start(port = this.port): Promise<this> {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void (async () => {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { query: string; variables?: Record<string, unknown> };
          const call = { headers: req.headers, query: body.query, variables: body.variables };
          this.calls.push(call);
          const headers = { 'content-type': 'application/json', ...(body.query.includes('__schema') ? {} : this.responseHeaders) };
          if (this.answer && !body.query.includes('__schema')) {
            res.writeHead(200, headers);
            res.end(this.answer(call));
            return;
          }
          const result = await graphql({ schema: this.schema, source: body.query, rootValue: this.root, variableValues: body.variables ?? null, contextValue: req.headers });
          res.writeHead(200, headers);
          res.end(JSON.stringify(result));
        })();
      });
    });
    await this.serve(server, port);
    return this;
  }
}

/** A port nothing listens on (yet). */
export async function freePort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}
