/**
 * Which outgoing HTTPS calls skip certificate verification (spec "TLS allow-list entry"): those
 * to a host of the metadata's TLS allow-list, and when the entry has a `suffix`, to that port
 * only (as the well-known engine matches it). The front thread follows the list through the
 * snapshot header (`PublishedSnapshot.tlsAllowlist`), never by reading metadata.
 */
import type { TlsAllowEntry } from '../metadata/tls-allowlist.js';

const DEFAULT_PORTS: Record<string, string> = { 'https:': '443', 'http:': '80' };

export class TlsAllowlist {
  /** Lower-case host -> the suffixes listed for it (null: every port). */
  private hosts = new Map<string, (string | null)[]>();

  update(entries: readonly TlsAllowEntry[]): void {
    const hosts = new Map<string, (string | null)[]>();
    for (const e of entries) {
      const key = e.host.toLowerCase();
      hosts.set(key, [...(hosts.get(key) ?? []), e.suffix ?? null]);
    }
    this.hosts = hosts;
  }

  /** Whether the server of `url` may present a self-signed, name-mismatched or non-X509v3 certificate. */
  permits(url: URL): boolean {
    // An IPv6 literal's hostname keeps its brackets in a URL.
    const suffixes = this.hosts.get(url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase());
    if (!suffixes) return false;
    const port = url.port || DEFAULT_PORTS[url.protocol] || '';
    return suffixes.some((s) => s === null || s === port);
  }
}
