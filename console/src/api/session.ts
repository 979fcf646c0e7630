/**
 * The admin secret, asked for once and kept for the browser session (sessionStorage: closing the
 * tab forgets it). An engine without an admin secret takes the console's calls without one.
 */
const KEY = 'service-console-admin-secret';

export const storedSecret = (): string | null => sessionStorage.getItem(KEY);
export const storeSecret = (secret: string): void => sessionStorage.setItem(KEY, secret);
export const forgetSecret = (): void => sessionStorage.removeItem(KEY);
