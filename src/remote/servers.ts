/**
 * The remote schemas' servers as the front thread calls them: each stored definition's
 * endpoint (URL and headers read from the environment once per definition), following the
 * snapshot header, and one outgoing HTTP client (keep-alive; the TLS allow-list).
 */
import type { Snapshots } from '../protocol/snapshot.js';
import { log } from '../log.js';
import { HttpClient } from '../outgoing/http-client.js';
import type { TlsAllowlist } from '../outgoing/tls-allowlist.js';
import type { PublishedSnapshot } from '../protocol/snapshot.js';
import { REMOTE_MAX_ANSWER_BYTES, remoteEndpoint, type RemoteEndpoint, type RemoteServer } from './server.js';

export class RemoteServers {
  private readonly client: HttpClient;
  private servers = new Map<string, { definition: unknown; endpoint: RemoteEndpoint | null }>();

  constructor(snapshots: Snapshots<Pick<PublishedSnapshot, 'remoteSchemas'>>, tlsAllowlist: TlsAllowlist) {
    this.client = new HttpClient(60_000, REMOTE_MAX_ANSWER_BYTES, tlsAllowlist);
    snapshots.subscribe((s) => this.follow(s.remoteSchemas));
  }

  private follow(list: PublishedSnapshot['remoteSchemas']): void {
    const next = new Map<string, { definition: unknown; endpoint: RemoteEndpoint | null }>();
    for (const r of list) {
      const kept = this.servers.get(r.name);
      if (kept && JSON.stringify(kept.definition) === JSON.stringify(r.definition)) {
        next.set(r.name, kept);
        continue;
      }
      let endpoint: RemoteEndpoint | null = null;
      try {
        endpoint = remoteEndpoint(r.definition);
      } catch (e) {
        log.warn('remote schema cannot be called', { remoteSchema: r.name, error: e instanceof Error ? e.message : String(e) });
      }
      next.set(r.name, { definition: r.definition, endpoint });
    }
    this.servers = next;
  }

  get(name: string): RemoteServer | undefined {
    const endpoint = this.servers.get(name)?.endpoint;
    return endpoint ? { endpoint, client: this.client } : undefined;
  }

  close(): void {
    this.client.close();
  }
}
