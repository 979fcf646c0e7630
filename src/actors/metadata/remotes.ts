/**
 * The metadata actor's view of the remote schemas: each definition's introspection (or why
 * it could not be had), fetched when a remote schema is added, its URL, headers or timeout
 * change, or on reload. An unreachable server never stops anything: the remote schema is
 * inconsistent with the reason, and `retry` (run in the background by the service) fetches it
 * again until it answers.
 */
import { introspectionKey, remoteSchemas } from '../../metadata/remote-schemas.js';
import { tlsAllowlist } from '../../metadata/tls-allowlist.js';
import type { Metadata } from '../../metadata/types.js';
import { HttpClient } from '../../outgoing/http-client.js';
import { TlsAllowlist } from '../../outgoing/tls-allowlist.js';
import { introspectRemote } from '../../remote/introspect.js';
import { REMOTE_MAX_ANSWER_BYTES } from '../../remote/server.js';
import type { RemoteState } from '../../metadata/resolve/remote-schemas.js';
import { canonicalJson } from '../../util/canonical-json.js';
import { logger } from '../../log.js';

const log = logger('metadata');

interface Entry {
  key: string;
  state: RemoteState;
}

export class RemoteManager {
  private readonly entries = new Map<string, Entry>();
  private readonly allowlist = new TlsAllowlist();
  private readonly client = new HttpClient(60_000, REMOTE_MAX_ANSWER_BYTES, this.allowlist);

  /** Introspects the remote schemas that are new or whose definition changed (and those in `refresh`); forgets removed ones. */
  async sync(m: Metadata, refresh: ReadonlySet<string> | true = new Set()): Promise<void> {
    this.allowlist.update(tlsAllowlist(m));
    const list = remoteSchemas(m);
    const wanted = new Set(list.map((r) => r.name));
    for (const name of this.entries.keys()) if (!wanted.has(name)) this.entries.delete(name);
    await Promise.all(
      list.map(async (r) => {
        const key = canonicalJson(introspectionKey(r.definition));
        const e = this.entries.get(r.name);
        if (e && e.key === key && refresh !== true && !refresh.has(r.name)) return;
        this.entries.set(r.name, { key, state: await this.read(r.name, r.definition) });
      }),
    );
  }

  /** Fetches again the remote schemas that could not be introspected; whether any now could. */
  async retry(m: Metadata): Promise<boolean> {
    const failed = remoteSchemas(m).filter((r) => this.entries.get(r.name)?.state.error);
    if (failed.length === 0) return false;
    let recovered = false;
    await Promise.all(
      failed.map(async (r) => {
        const state = await this.read(r.name, r.definition, true);
        const e = this.entries.get(r.name);
        // A definition changed meanwhile has been read by its own sync.
        if (!e || e.key !== canonicalJson(introspectionKey(r.definition)) || !state.introspection) return;
        e.state = state;
        recovered = true;
        log.info('remote schema is reachable again', { remoteSchema: r.name });
      }),
    );
    return recovered;
  }

  hasFailures(): boolean {
    return [...this.entries.values()].some((e) => e.state.error !== null);
  }

  private async read(name: string, d: Parameters<typeof introspectRemote>[1], quiet = false): Promise<RemoteState> {
    try {
      return { introspection: await introspectRemote(this.client, d), error: null };
    } catch (e) {
      const error = e instanceof Error ? e.message : String(e);
      if (!quiet) log.warn('remote schema could not be introspected', { remoteSchema: name, error });
      return { introspection: null, error };
    }
  }

  states(): Map<string, RemoteState> {
    return new Map([...this.entries].map(([name, e]) => [name, e.state]));
  }

  close(): void {
    this.client.close();
  }
}
