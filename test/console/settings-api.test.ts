/**
 * The Settings section's API pages (docs/console.md, "Settings"): a query collection made and
 * filled from the page (a query that is not GraphQL stopped before it is sent), put on the
 * allow-list with a scope that is then changed; a REST endpoint made from a query, tried and
 * deleted; API limits set and removed; the TLS allow-list; the metrics setting. Each change is
 * checked in the engine's metadata.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, expectedFailure, exported, openConsole, signIn, type ConsoleSetting } from '../support/console.js';

let s: ConsoleSetting;

const goTo = async (name: string) => {
  await s.page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name, exact: true }).click();
  await expect.poll(() => s.page.getByRole('heading', { level: 1 }).textContent()).toBe(name);
};

beforeAll(async () => {
  s = await openConsole('settings-api');
  await s.db.sql("CREATE TABLE author (id serial PRIMARY KEY, name text NOT NULL); INSERT INTO author (name) VALUES ('Ann'), ('Bob')");
  expect((await s.engine.metadata({ type: 'pg_track_table', args: { source: 'default', table: 'author' } }, ADMIN)).status).toBe(200);
  await signIn(s, '/console/settings/query-collections');
});

afterAll(async () => {
  await s?.close();
});

describe('query collections and the allow-list', () => {
  it('creates a collection and adds a query to it', async () => {
    const { page } = s;
    await expect.poll(() => page.getByText('No query collections.').isVisible()).toBe(true);
    await s.browser.shot('no-collections');
    await page.getByLabel('Collection name').fill('my-queries');
    await page.getByRole('button', { name: 'Create collection' }).click();
    const card = page.getByRole('region', { name: 'Collection my-queries' });
    await expect.poll(() => card.getByText('No queries yet.').isVisible()).toBe(true);
    await card.getByLabel('Query name').fill('authors');
    await card.getByLabel('GraphQL query').fill('query authors { author { id name }');
    await card.getByRole('button', { name: 'Add query' }).click();
    await expect.poll(() => card.getByRole('alert').textContent()).toContain('The query is not valid GraphQL: Syntax Error');
    await s.browser.shot('query-not-graphql');
    await card.getByLabel('GraphQL query').fill('query authors { author { id name } }');
    await card.getByRole('button', { name: 'Add query' }).click();
    await expect.poll(() => card.getByRole('table', { name: 'Queries of my-queries' }).getByRole('row').count()).toBe(2);
    await s.browser.shot('collection-with-query');
    expect((await exported(s)).query_collections).toEqual([{ name: 'my-queries', definition: { queries: [{ name: 'authors', query: 'query authors { author { id name } }' }] } }]);
  });

  it('puts the collection on the allow-list for roles, then globally, then removes it', async () => {
    const { page } = s;
    await goTo('Allow-list');
    await expect.poll(() => page.getByText('No collection is on the allow-list.').isVisible()).toBe(true);
    await expect.poll(() => page.getByText('The engine does not enforce the allow-list').isVisible()).toBe(true);
    const form = page.getByRole('form', { name: 'Add a collection to the allow-list' });
    await form.getByLabel('Scope of the new entry').selectOption('roles');
    await form.getByLabel('Roles of the new entry (comma-separated)').fill('user, editor');
    await s.browser.shot('allow-list-add');
    await form.getByRole('button', { name: 'Add to allow-list' }).click();
    const row = page.getByRole('table', { name: 'Allow-list' }).getByRole('row', { name: /my-queries/ });
    await expect.poll(() => row.getByRole('cell').nth(1).textContent()).toBe('roles: user, editor');
    expect((await exported(s)).allowlist).toEqual([{ collection: 'my-queries', scope: { global: false, roles: ['user', 'editor'] } }]);
    await s.browser.shot('allow-listed-for-roles');
    await row.getByLabel('Scope of my-queries').selectOption('global');
    await row.getByRole('button', { name: 'Update scope' }).click();
    await expect.poll(() => row.getByRole('cell').nth(1).textContent()).toBe('global');
    expect((await exported(s)).allowlist).toEqual([{ collection: 'my-queries', scope: { global: true } }]);
    await s.browser.shot('allow-listed-globally');
    await row.getByRole('button', { name: 'Remove from allow-list' }).click();
    await row.getByRole('group', { name: 'Confirm: Remove from allow-list' }).getByRole('button', { name: 'Yes, remove from allow-list' }).click();
    await expect.poll(() => page.getByText('No collection is on the allow-list.').isVisible()).toBe(true);
    expect((await exported(s)).allowlist).toBeUndefined();
    await s.browser.shot('allow-list-emptied');
  });

  it('renames the collection, drops its query, then the collection', async () => {
    const { page } = s;
    await goTo('Query collections');
    await page.getByRole('region', { name: 'Collection my-queries' }).getByRole('button', { name: 'Rename' }).click();
    await page.getByLabel('New name of my-queries').fill('team-queries');
    await s.browser.shot('rename-collection');
    await page.getByRole('button', { name: 'Save name' }).click();
    const card = page.getByRole('region', { name: 'Collection team-queries' });
    await expect.poll(() => card.isVisible()).toBe(true);
    expect((await exported(s)).query_collections.map((c: { name: string }) => c.name)).toEqual(['team-queries']);
    const row = card.getByRole('row', { name: /authors/ });
    await row.getByRole('button', { name: 'Drop query' }).click();
    await row.getByRole('group', { name: 'Confirm: Drop query' }).getByRole('button', { name: 'Yes, drop query' }).click();
    await expect.poll(() => card.getByText('No queries yet.').isVisible()).toBe(true);
    expect((await exported(s)).query_collections).toEqual([{ name: 'team-queries', definition: { queries: [] } }]);
    await card.getByRole('button', { name: 'Drop collection' }).click();
    await s.browser.shot('drop-collection-confirm');
    await card.getByRole('group', { name: 'Confirm: Drop collection' }).getByRole('button', { name: 'Yes, drop collection' }).click();
    await expect.poll(() => page.getByText('No query collections.').isVisible()).toBe(true);
    expect((await exported(s)).query_collections).toBeUndefined();
    await s.browser.shot('collections-dropped');
  });
});

describe('REST endpoints', () => {
  it('creates an endpoint from a query, tries it and deletes it', async () => {
    const { page } = s;
    await goTo('REST endpoints');
    await expect.poll(() => page.getByText('No REST endpoints.').isVisible()).toBe(true);
    const form = page.getByRole('form', { name: 'Create a REST endpoint' });
    await form.getByLabel('Endpoint name').fill('author_by_id');
    await form.getByLabel(/^URL template/).fill('authors/:id');
    await form.getByLabel('GET').check();
    await form.getByLabel('POST').check();
    const query = 'query author_by_id($id: Int!) { author_by_pk(id: $id) { id name } }';
    await form.getByLabel('GraphQL query of the endpoint').fill(query);
    await s.browser.shot('rest-create');
    await form.getByRole('button', { name: 'Create endpoint' }).click();
    const row = page.getByRole('table', { name: 'REST endpoints' }).getByRole('row', { name: /author_by_id/ });
    await expect.poll(() => row.textContent()).toContain('/api/rest/authors/:id');
    await s.browser.shot('rest-endpoints');
    const m = await exported(s);
    expect(m.rest_endpoints).toEqual([{ name: 'author_by_id', url: 'authors/:id', methods: ['GET', 'POST'], definition: { query: { collection_name: 'allowed-queries', query_name: 'author_by_id' } } }]);
    expect(m.query_collections).toContainEqual({ name: 'allowed-queries', definition: { queries: [{ name: 'author_by_id', query }] } });

    await row.getByRole('link', { name: 'Try it' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('REST endpoint author_by_id');
    await page.getByLabel('URL variable id').fill('2');
    await page.getByRole('button', { name: 'Send request' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('GET /api/rest/authors/2: HTTP 200');
    expect(JSON.parse((await page.getByLabel('Response').textContent()) ?? '')).toEqual({ author_by_pk: { id: 2, name: 'Bob' } });
    await s.browser.shot('rest-tried-get');
    await page.getByLabel('Method').selectOption('POST');
    await page.getByLabel('URL variable id').fill('1');
    await page.getByRole('button', { name: 'Send request' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('POST /api/rest/authors/1: HTTP 200');
    expect(JSON.parse((await page.getByLabel('Response').textContent()) ?? '')).toEqual({ author_by_pk: { id: 1, name: 'Ann' } });
    await s.browser.shot('rest-tried-post');
    // As the role user, which has no permission on author: the engine's error, as it answered.
    await page.getByRole('button', { name: 'Add request header' }).click();
    await page.getByLabel('Request header: name 1').fill('x-service-role');
    await page.getByLabel('Request header: value 1').fill('user');
    await page.getByRole('button', { name: 'Send request' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('POST /api/rest/authors/1: HTTP 400');
    expect(JSON.parse((await page.getByLabel('Response').textContent()) ?? '')).toMatchObject({ code: 'validation-failed' });
    await s.browser.shot('rest-tried-as-user');
    // The endpoint's 400 is logged by the browser: the answer this test asked for.
    await expectedFailure(s, 400);

    await page.getByRole('link', { name: 'All endpoints' }).click();
    await row.getByRole('button', { name: 'Delete' }).click();
    await row.getByRole('group', { name: 'Confirm: Delete' }).getByRole('button', { name: 'Yes, delete' }).click();
    await expect.poll(() => page.getByText('No REST endpoints.').isVisible()).toBe(true);
    await s.browser.shot('rest-deleted');
    const after = await exported(s);
    expect(after.rest_endpoints).toBeUndefined();
    expect(after.query_collections).toContainEqual({ name: 'allowed-queries', definition: { queries: [] } });
  });
});

describe('security', () => {
  it('sets API limits with global and per-role values, then removes them', async () => {
    const { page } = s;
    await goTo('API limits');
    await expect.poll(() => page.getByText('No limits are set').isVisible()).toBe(true);
    // A role's value without a global one: the engine refuses it, naming the path, and stores nothing.
    await page.getByRole('button', { name: 'Add a role to batch limit' }).click();
    await page.getByLabel('Batch limit: role 1').fill('user');
    await page.getByLabel('Batch limit: value of role 1').fill('2');
    await page.getByRole('button', { name: 'Save limits' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('$.args.batch_limit');
    await s.browser.shot('api-limits-refused');
    expect((await exported(s)).api_limits).toBeUndefined();
    // The refused call's 400 is logged by the browser: the failure this test asked for.
    await expectedFailure(s, 400);
    await page.getByRole('button', { name: 'Remove role 1 of batch limit' }).click();
    await page.getByLabel('Depth limit: global value').fill('5');
    await page.getByRole('button', { name: 'Add a role to depth limit' }).click();
    await page.getByLabel('Depth limit: role 1').fill('user');
    await page.getByLabel('Depth limit: value of role 1').fill('3');
    await page.getByLabel('Node limit: global value').fill('50');
    await page.getByLabel('Time limit: global value').fill('2.5');
    await page.getByLabel('Rate limit: global requests per minute').fill('100');
    await page.getByLabel('Rate limit: global unique parameters (IP, or session variables)').fill('IP');
    await page.getByRole('button', { name: 'Add a role to rate limit' }).click();
    await page.getByLabel('Rate limit: role 1').fill('user');
    await page.getByLabel('Rate limit: requests per minute of role 1').fill('10');
    await page.getByLabel('Rate limit: unique parameters of role 1').fill('x-service-user-id');
    await s.browser.shot('api-limits-filled');
    await page.getByRole('button', { name: 'Save limits' }).click();
    await expect.poll(() => page.getByText('Limits are set.').isVisible()).toBe(true);
    expect((await exported(s)).api_limits).toEqual({
      disabled: false,
      depth_limit: { global: 5, per_role: { user: 3 } },
      node_limit: { global: 50 },
      time_limit: { global: 2.5 },
      rate_limit: { global: { max_reqs_per_min: 100, unique_params: 'IP' }, per_role: { user: { max_reqs_per_min: 10, unique_params: ['x-service-user-id'] } } },
    });
    expect(await page.getByLabel('Depth limit: value of role 1').inputValue()).toBe('3');
    await s.browser.shot('api-limits-set');
    await page.getByRole('button', { name: 'Remove all limits' }).click();
    await page.getByRole('group', { name: 'Confirm: Remove all limits' }).getByRole('button', { name: 'Yes, remove all limits' }).click();
    await expect.poll(() => page.getByText('No limits are set').isVisible()).toBe(true);
    expect((await exported(s)).api_limits).toBeUndefined();
    expect(await page.getByLabel('Depth limit: global value').inputValue()).toBe('');
    await s.browser.shot('api-limits-removed');
  });

  it('adds a host to the TLS allow-list and removes it', async () => {
    const { page } = s;
    await goTo('TLS allow-list');
    await expect.poll(() => page.getByText('No host is on the TLS allow-list.').isVisible()).toBe(true);
    await page.getByLabel('Host', { exact: true }).fill('hooks.internal');
    await page.getByLabel('Suffix (optional: a port)').fill('8443');
    await page.getByRole('button', { name: 'Add host' }).click();
    const row = page.getByRole('table', { name: 'TLS allow-list' }).getByRole('row', { name: /hooks\.internal/ });
    await expect.poll(() => row.textContent()).toBe('hooks.internal8443self-signedRemove');
    expect((await exported(s)).network).toEqual({ tls_allowlist: [{ host: 'hooks.internal', suffix: '8443', permissions: ['self-signed'] }] });
    await s.browser.shot('tls-allowlist-added');
    await row.getByRole('button', { name: 'Remove' }).click();
    await row.getByRole('group', { name: 'Confirm: Remove' }).getByRole('button', { name: 'Yes, remove' }).click();
    await expect.poll(() => page.getByText('No host is on the TLS allow-list.').isVisible()).toBe(true);
    expect((await exported(s)).network).toBeUndefined();
    await s.browser.shot('tls-allowlist-removed');
  });

  it('saves the OpenTelemetry setting, enables and disables the export', async () => {
    const { page } = s;
    await goTo('Observability');
    await s.browser.shot('observability');
    const otel = page.getByRole('region', { name: 'OpenTelemetry' });
    await otel.getByLabel('OTLP traces endpoint').fill('http://127.0.0.1:9/v1/traces');
    await otel.getByRole('button', { name: 'Add header' }).click();
    await otel.getByLabel('Header 1 name').fill('x-token');
    await otel.getByLabel('Header 1 type').selectOption('env');
    await otel.getByLabel('Header 1 env var').fill('OTEL_TOKEN_FOR_TEST');
    await otel.getByRole('button', { name: 'Add resource attribute' }).click();
    await otel.getByLabel('Resource attribute: name 1').fill('deployment.environment');
    await otel.getByLabel('Resource attribute: value 1').fill('test');
    await otel.getByLabel('tracecontext').check();
    await otel.getByLabel('Batch size (spans per export)').fill('100');
    await s.browser.shot('opentelemetry-filled');
    // A header read from an environment variable the engine was not given: refused, nothing stored.
    await otel.getByRole('button', { name: 'Save OpenTelemetry setting' }).click();
    await expect.poll(() => otel.getByRole('alert').textContent()).toContain('OTEL_TOKEN_FOR_TEST');
    await s.browser.shot('opentelemetry-refused');
    expect((await exported(s)).opentelemetry).toBeUndefined();
    // The refused call's 400 is logged by the browser: the failure this test asked for.
    await expectedFailure(s, 400);
    await otel.getByLabel('Header 1 type').selectOption('value');
    await otel.getByLabel('Header 1 value').fill('token-value');
    await otel.getByRole('button', { name: 'Save OpenTelemetry setting' }).click();
    await expect.poll(async () => (await exported(s)).opentelemetry).toEqual({
      status: 'disabled',
      data_types: ['traces'],
      exporter_otlp: {
        otlp_traces_endpoint: 'http://127.0.0.1:9/v1/traces',
        protocol: 'http/protobuf',
        headers: [{ name: 'x-token', value: 'token-value' }],
        resource_attributes: [{ name: 'deployment.environment', value: 'test' }],
        traces_propagators: ['b3', 'tracecontext'],
      },
      batch_span_processor: { max_export_batch_size: 100 },
    });
    await s.browser.shot('opentelemetry-saved');
    await otel.getByRole('button', { name: 'Enable OpenTelemetry' }).click();
    await expect.poll(() => otel.getByText('Export is enabled.').isVisible()).toBe(true);
    expect((await exported(s)).opentelemetry.status).toBe('enabled');
    await s.browser.shot('opentelemetry-enabled');
    await otel.getByRole('button', { name: 'Disable OpenTelemetry' }).click();
    await expect.poll(() => otel.getByText('Export is disabled.').isVisible()).toBe(true);
    expect((await exported(s)).opentelemetry.status).toBe('disabled');
    await s.browser.shot('opentelemetry-disabled');
  });

  it('sets and removes the metrics setting', async () => {
    const { page } = s;
    await page.getByLabel('Analyze query variables').check();
    await page.getByRole('button', { name: 'Save metrics setting' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Remove metrics setting' }).isVisible()).toBe(true);
    expect((await exported(s)).metrics_config).toEqual({ analyze_query_variables: true, analyze_response_body: false });
    await s.browser.shot('metrics-set');
    await page.getByRole('button', { name: 'Remove metrics setting' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Remove metrics setting' }).isVisible()).toBe(false);
    expect((await exported(s)).metrics_config).toBeUndefined();
    await s.browser.shot('metrics-removed');
  });
});
