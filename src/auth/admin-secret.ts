/** Admin secret comparison: constant time, against every configured secret (several allow rotation). */
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (s: string) => createHash('sha256').update(s).digest();

export function makeSecretCheck(secrets: string[]): (given: string) => boolean {
  const digests = secrets.map(digest);
  return (given) => {
    const d = digest(given);
    let ok = false;
    for (const s of digests) ok = timingSafeEqual(s, d) || ok;
    return ok;
  };
}
