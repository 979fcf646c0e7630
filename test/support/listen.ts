/** Starting and stopping the node:http servers tests run (remote schemas, action handlers). */
import type http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens on 127.0.0.1 (`port` 0: any free port); gives the port. */
export async function listen(server: http.Server, port: number): Promise<number> {
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Closes the server and its open connections (nothing when null). */
export async function closeServer(s: http.Server | null): Promise<void> {
  if (!s) return;
  s.closeAllConnections();
  await new Promise<void>((resolve) => s.close(() => resolve()));
}

/** A test server that can be stopped and started again on the same port. */
export class TestServer {
  protected server: http.Server | null = null;
  port = 0;

  protected async serve(server: http.Server, port: number): Promise<void> {
    this.port = await listen(server, port);
    this.server = server;
  }

  async stop(): Promise<void> {
    const s = this.server;
    this.server = null;
    await closeServer(s);
  }
}
