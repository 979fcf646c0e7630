/** Which outgoing URLs the TLS allow-list exempts from certificate verification. */
import { describe, expect, it } from 'vitest';
import { TlsAllowlist } from '../../src/outgoing/tls-allowlist.js';

describe('TlsAllowlist', () => {
  it('matches the host exactly, and the port when the entry has a suffix', () => {
    const list = new TlsAllowlist();
    list.update([{ host: 'Hooks.Example.com' }, { host: 'api.example.com', suffix: '8443' }, { host: '::1', suffix: '443' }]);
    const permits = (url: string) => list.permits(new URL(url));
    expect(permits('https://hooks.example.com/auth')).toBe(true);
    expect(permits('https://hooks.example.com:9000/auth')).toBe(true);
    expect(permits('https://sub.hooks.example.com/auth')).toBe(false);
    expect(permits('https://example.com/auth')).toBe(false);
    expect(permits('https://api.example.com:8443/x')).toBe(true);
    expect(permits('https://api.example.com/x')).toBe(false);
    expect(permits('https://[::1]/x')).toBe(true);
    expect(permits('https://[::1]:8443/x')).toBe(false);
    list.update([]);
    expect(permits('https://hooks.example.com/auth')).toBe(false);
  });
});
