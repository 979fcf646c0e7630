/** Admin secret and unauthorized role, without webhook or JWT (spec "Authentication" items 1-3). */
import { describe, expect, it } from 'vitest';
import { createAuthenticator } from '../../src/auth/resolve.js';
import type { AuthConfig } from '../../src/auth/auth-config.js';

const base: AuthConfig = { adminSecrets: [], authHook: undefined, jwtSecret: undefined, unauthorizedRole: undefined };
const authenticate = async (config: Partial<AuthConfig>, headers: Record<string, string>) =>
  (await createAuthenticator({ ...base, ...config })).authenticate({ headers, body: null });

describe('without an admin secret configured', () => {
  it('makes every request admin, acting as X-Service-Role with its session headers (names any case)', async () => {
    expect(await authenticate({}, {})).toEqual({ role: 'admin', variables: { 'x-service-role': 'admin' }, isAdmin: true, useBackendOnlyPermissions: false });
    expect(await authenticate({}, { 'x-service-role': 'user', 'X-Service-User-Id': '3', other: 'x' })).toEqual({
      role: 'user',
      variables: { 'x-service-role': 'user', 'x-service-user-id': '3' },
      isAdmin: true,
      useBackendOnlyPermissions: false,
    });
  });

  it('honours X-Service-Use-Backend-Only-Permissions and refuses a value that is not a boolean', async () => {
    expect(await authenticate({}, { 'x-service-use-backend-only-permissions': 'Yes' })).toMatchObject({ useBackendOnlyPermissions: true });
    expect(await authenticate({}, { 'x-service-use-backend-only-permissions': 'f' })).toMatchObject({ useBackendOnlyPermissions: false });
    expect(await authenticate({}, { 'x-service-use-backend-only-permissions': 'maybe' })).toMatchObject({ status: 400, code: 'bad-request' });
  });
});

describe('with admin secrets configured', () => {
  const secured = { adminSecrets: ['old-secret', 'new-secret'] };

  it('accepts any of the secrets (rotation), under either header name', async () => {
    for (const secret of ['old-secret', 'new-secret']) {
      expect(await authenticate(secured, { 'x-service-admin-secret': secret, 'x-service-role': 'user' })).toMatchObject({ role: 'user', isAdmin: true });
    }
    expect(await authenticate(secured, { 'x-service-access-key': 'new-secret' })).toMatchObject({ role: 'admin', isAdmin: true });
  });

  it('never turns the secret into a session variable', async () => {
    expect(await authenticate(secured, { 'x-service-admin-secret': 'new-secret', 'x-service-user-id': '1' })).toMatchObject({
      variables: { 'x-service-role': 'admin', 'x-service-user-id': '1' },
    });
  });

  it('refuses a wrong or empty secret', async () => {
    const denied = { status: 401, code: 'access-denied', message: 'invalid x-service-admin-secret/x-service-access-key' };
    expect(await authenticate(secured, { 'x-service-admin-secret': 'new-secret!' })).toEqual(denied);
    expect(await authenticate(secured, { 'x-service-admin-secret': '' })).toEqual(denied);
  });

  it('refuses a request without the secret when no unauthorized role is set', async () => {
    expect(await authenticate(secured, { 'x-service-role': 'admin' })).toEqual({
      status: 401,
      code: 'access-denied',
      message: 'x-service-admin-secret/x-service-access-key required, but not found',
    });
  });

  it('runs a request without the secret as the unauthorized role, whatever X-Service-Role says', async () => {
    expect(await authenticate({ ...secured, unauthorizedRole: 'anonymous' }, { 'x-service-role': 'admin', 'x-service-use-backend-only-permissions': 'true' })).toEqual({
      role: 'anonymous',
      variables: { 'x-service-role': 'anonymous', 'x-service-use-backend-only-permissions': 'true' },
      isAdmin: false,
      useBackendOnlyPermissions: false,
    });
  });
});
