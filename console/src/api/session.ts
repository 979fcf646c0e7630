/**
 * The admin secret, asked for once and kept for the browser session: a session cookie (no
 * expiry: closing the browser forgets it) that every tab of the console shares, as the well-known
 * console's stored secret is shared. Its path is `/console`, so the browser sends it only with
 * the console's own files, never with an API call (those carry the secret in their header); the
 * engine never reads it. An engine without an admin secret takes the console's calls without one.
 */
const NAME = 'service-console-admin-secret';
const ATTRIBUTES = `; path=/console; SameSite=Strict${location.protocol === 'https:' ? '; Secure' : ''}`;

export function storedSecret(): string | null {
  const entry = document.cookie.split('; ').find((c) => c.startsWith(`${NAME}=`));
  return entry === undefined ? null : decodeURIComponent(entry.slice(NAME.length + 1));
}

export const storeSecret = (secret: string): void => void (document.cookie = `${NAME}=${encodeURIComponent(secret)}${ATTRIBUTES}`);

export const forgetSecret = (): void => void (document.cookie = `${NAME}=${ATTRIBUTES}; max-age=0`);
