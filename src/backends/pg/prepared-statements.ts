/**
 * The prepared statements each pooled connection holds, least recently used first.
 * Past the cap the oldest is deallocated, so clients sending ever-new queries cannot
 * grow every connection's statements (and the server's memory) without bound.
 */
import type pg from 'pg';

interface Internals {
  connection: { parsedStatements: Record<string, string> };
}

export class PreparedStatements {
  private readonly held = new WeakMap<pg.ClientBase, Map<string, true>>();

  constructor(private readonly capPerConnection: number) {}

  /**
   * Records that `client` runs `name`; deallocates the least recently used one past the cap
   * (the promise, only then: the common case costs its caller no await).
   */
  used(client: pg.ClientBase, name: string): Promise<void> | undefined {
    let names = this.held.get(client);
    if (!names) {
      names = new Map();
      this.held.set(client, names);
    }
    names.delete(name);
    names.set(name, true);
    if (names.size <= this.capPerConnection) return undefined;
    const oldest = names.keys().next().value as string;
    names.delete(oldest);
    return deallocate(client, oldest);
  }
}

async function deallocate(client: pg.ClientBase, name: string): Promise<void> {
  // Names are our own hashes ([A-Za-z0-9_-]); quoted all the same.
  await client.query(`DEALLOCATE "${name.replace(/"/g, '""')}"`);
  // node-postgres remembers what it prepared; forget it so a later use prepares again.
  delete (client as unknown as Internals).connection.parsedStatements[name];
}
