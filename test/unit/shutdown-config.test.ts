/** SERVICE_GRAPHQL_GRACEFUL_SHUTDOWN_TIMEOUT: seconds, the well-known engine's default (60), checked at boot. */
import { describe, expect, it } from 'vitest';
import { load, refusal } from '../support/config.js';

describe('graceful shutdown timeout', () => {
  it('is 60 s by default, read in seconds from the variable or the flag', () => {
    expect(load({}).gracefulShutdownTimeoutMs).toBe(60_000);
    expect(load({ SERVICE_GRAPHQL_GRACEFUL_SHUTDOWN_TIMEOUT: '0' }).gracefulShutdownTimeoutMs).toBe(0);
    expect(load({ SERVICE_GRAPHQL_GRACEFUL_SHUTDOWN_TIMEOUT: '5' }, ['--graceful-shutdown-timeout', '30']).gracefulShutdownTimeoutMs).toBe(30_000);
  });

  it.each(['-1', '1.5', 'soon', '86401'])('refuses %j', (value) => {
    expect(refusal({ SERVICE_GRAPHQL_GRACEFUL_SHUTDOWN_TIMEOUT: value })).toBe(
      `SERVICE_GRAPHQL_GRACEFUL_SHUTDOWN_TIMEOUT / --graceful-shutdown-timeout: expected an integer from 0 to 86400, got "${value}"`,
    );
  });
});
