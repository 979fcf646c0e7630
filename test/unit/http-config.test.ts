/** The HTTP options at boot (CORS, body limits, WebSocket buffer) and the rules they feed. */
import { describe, expect, it } from 'vitest';
import { load, refusal } from '../support/config.js';
import { originAllowed, webSocketMayReadCookie } from '../../src/http/cors.js';
import { isJsonContentType, responseMedia } from '../../src/http/media.js';


describe('CORS options', () => {
  it('allows every origin by default', () => {
    expect(load({}).cors).toEqual({ kind: 'all' });
  });

  it('reads a list of origins, normalised as browsers send them', () => {
    const cors = load({ SERVICE_GRAPHQL_CORS_DOMAIN: 'https://App.Example.com:443, http://localhost:3000 ,https://*.example.org' }).cors;
    expect(cors).toEqual({ kind: 'origins', exact: new Set(['https://app.example.com', 'http://localhost:3000']), wildcards: new Set(['https://example.org']) });
    expect(originAllowed(cors, 'https://app.example.com')).toBe(true);
    expect(originAllowed(cors, 'https://x.example.org')).toBe(true);
    expect(originAllowed(cors, 'https://example.org')).toBe(false);
    expect(originAllowed(cors, 'https://x.y.example.org')).toBe(false);
  });

  it.each(['example.com', 'ftp://example.com', 'https://example.com/path', 'https://*example.com', 'https://a.*.example.com', '', 'https://example.com,'])('refuses the domain %j', (domain) => {
    expect(refusal({ SERVICE_GRAPHQL_CORS_DOMAIN: domain === '' ? ',' : domain })).toMatch(/^SERVICE_GRAPHQL_CORS_DOMAIN \/ --cors-domain: invalid domain/);
  });

  it('reads cookies on WebSockets with CORS disabled only when told to, and refuses that option otherwise', () => {
    const disabled = load({ SERVICE_GRAPHQL_DISABLE_CORS: 'true' }).cors;
    expect(disabled).toEqual({ kind: 'disabled', wsReadCookie: false });
    expect(webSocketMayReadCookie(disabled, undefined)).toBe(false);
    const reading = load({ SERVICE_GRAPHQL_DISABLE_CORS: 'true', SERVICE_GRAPHQL_WS_READ_COOKIE: 'true' }).cors;
    expect(webSocketMayReadCookie(reading, 'https://any.where')).toBe(true);
    expect(refusal({ SERVICE_GRAPHQL_WS_READ_COOKIE: 'true' })).toBe(
      'SERVICE_GRAPHQL_WS_READ_COOKIE / --ws-read-cookie can only be used when CORS is disabled (SERVICE_GRAPHQL_DISABLE_CORS / --disable-cors)',
    );
    expect(refusal({ SERVICE_GRAPHQL_DISABLE_CORS: 'true', SERVICE_GRAPHQL_CORS_DOMAIN: '*' })).toContain('cannot be used with SERVICE_GRAPHQL_DISABLE_CORS');
  });
});

describe('limits', () => {
  it('has a larger body limit for the admin routes, and a WebSocket buffer bound', () => {
    expect(load({})).toMatchObject({ maxBodyBytes: 10 * 2 ** 20, adminMaxBodyBytes: 256 * 2 ** 20, websocketMaxBufferedBytes: 16 * 2 ** 20 });
    expect(load({ SERVICE_GRAPHQL_ADMIN_MAX_BODY_SIZE: '1048576', SERVICE_GRAPHQL_WEBSOCKET_MAX_BUFFERED: '65536' })).toMatchObject({ adminMaxBodyBytes: 2 ** 20, websocketMaxBufferedBytes: 65536 });
    expect(refusal({ SERVICE_GRAPHQL_WEBSOCKET_MAX_BUFFERED: '100' })).toContain('expected an integer from 65536');
  });

  it('has WebSocket keep-alive and connection_init timeouts in seconds (5 and 3 by default)', () => {
    expect(load({})).toMatchObject({ websocketKeepAliveMs: 5000, websocketInitTimeoutMs: 3000 });
    expect(load({ SERVICE_GRAPHQL_WEBSOCKET_KEEPALIVE: '20', SERVICE_GRAPHQL_WEBSOCKET_CONNECTION_INIT_TIMEOUT: '10' })).toMatchObject({ websocketKeepAliveMs: 20_000, websocketInitTimeoutMs: 10_000 });
    expect(refusal({ SERVICE_GRAPHQL_WEBSOCKET_CONNECTION_INIT_TIMEOUT: '0' })).toBe(
      'SERVICE_GRAPHQL_WEBSOCKET_CONNECTION_INIT_TIMEOUT / --websocket-connection-init-timeout: expected an integer from 1 to 3600, got "0"',
    );
    expect(refusal({ SERVICE_GRAPHQL_WEBSOCKET_KEEPALIVE: '1.5' })).toContain('SERVICE_GRAPHQL_WEBSOCKET_KEEPALIVE / --websocket-keepalive: expected an integer');
  });

  it('reads SERVICE_GRAPHQL_ENABLE_QUERY_TRACING as true or false (false by default)', () => {
    expect(load({})).toMatchObject({ enableQueryTracing: false });
    expect(load({ SERVICE_GRAPHQL_ENABLE_QUERY_TRACING: 'true' })).toMatchObject({ enableQueryTracing: true });
    expect(refusal({ SERVICE_GRAPHQL_ENABLE_QUERY_TRACING: 'yes' })).toBe('SERVICE_GRAPHQL_ENABLE_QUERY_TRACING / --enable-query-tracing: expected true or false, got "yes"');
  });
});

describe('media types', () => {
  it.each([
    ['', 'application/json'],
    ['*/*', 'application/json'],
    ['application/graphql-response+json', 'application/graphql-response+json'],
    ['application/graphql-response+json, application/json;q=0.9', 'application/graphql-response+json'],
    ['application/json, application/graphql-response+json;q=0.9', 'application/json'],
    ['application/graphql-response+json;q=0', 'application/json'],
  ])('answers Accept %j with %s', (accept, media) => {
    expect(responseMedia(accept)).toBe(media);
  });

  it('counts application/json and +json types as JSON', () => {
    expect(['application/json', 'Application/JSON; charset=utf-8', 'application/graphql-response+json'].map(isJsonContentType)).toEqual([true, true, true]);
    expect(['text/plain', 'application/x-www-form-urlencoded', 'text/json+x', undefined].map(isJsonContentType)).toEqual([false, false, false, false]);
  });
});
