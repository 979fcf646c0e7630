/**
 * A self-signed certificate made for a test by `openssl` (node:crypto cannot make
 * certificates): RSA 2048, valid a day, for a host name the test never calls, so a client
 * that verifies finds it both self-signed and name-mismatched.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function selfSignedCertificate(commonName = 'self-signed.invalid'): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'service-tls-'));
  try {
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', `/CN=${commonName}`], { stdio: 'pipe' });
    return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
