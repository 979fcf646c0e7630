/**
 * The Remote Schemas section (docs/console.md): adding a remote schema pointing at a real
 * GraphQL server, browsing its types (introspect_remote_schema), a role's permission cut down
 * from the remote's SDL and queried through /v1/graphql as that role, an unreachable server
 * refused with the engine's error and nothing stored, modifying, reloading and removing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectedFailure, exported, graphqlAs, openConsole, signIn, type ConsoleSetting } from '../support/console.js';
import { freePort, RemoteGraphQL } from '../support/remote-graphql.js';

const SDL = `
type Query {
  hello(name: String): String
  secret: String
  person(id: Int!): Person
}
type Person {
  id: Int!
  name: String!
}
`;

let s: ConsoleSetting;
let remote: RemoteGraphQL;


beforeAll(async () => {
  remote = await new RemoteGraphQL(SDL, {
    hello: ({ name }: { name?: string }) => `Hello ${name ?? 'world'}`,
    secret: () => 'the secret',
    person: ({ id }: { id: number }) => ({ id, name: 'Ann' }),
  }).start();
  s = await openConsole('remote-schemas', { SERVICE_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS: 'true', PEOPLE_URL: remote.url, PEOPLE_KEY: 'from-env' });
});

afterAll(async () => {
  await s?.close();
  await remote?.stop();
});

describe('remote schemas', () => {
  it('adds a remote schema with a header and a timeout', async () => {
    const { page } = s;
    await signIn(s, '/console/remote-schemas');
    await expect.poll(() => page.getByText('No remote schemas yet').isVisible()).toBe(true);
    await s.browser.shot('empty');
    await page.getByRole('link', { name: 'Add remote schema' }).click();
    await page.getByLabel('Remote schema name').fill('people');
    await page.getByLabel('GraphQL server URL', { exact: true }).fill(remote.url);
    await page.getByRole('button', { name: 'Add header' }).click();
    await page.getByLabel('Header 1 name').fill('X-Api-Key');
    await page.getByLabel('Header 1 value').fill('k1');
    await page.getByLabel('GraphQL server timeout (seconds)').fill('10');
    await s.browser.shot('add-form');
    await page.getByRole('button', { name: 'Add remote schema' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'people' }).isVisible()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/console/remote-schemas/people/details');
    await s.browser.shot('details');
    const [rs] = (await exported(s)).remote_schemas;
    expect(rs).toEqual({ name: 'people', definition: { url: remote.url, headers: [{ name: 'X-Api-Key', value: 'k1' }], timeout_seconds: 10 } });
    expect(remote.calls.at(-1)!.headers['x-api-key']).toBe('k1');
  });

  it('browses the remote\'s types', async () => {
    const { page } = s;
    await page.getByRole('link', { name: 'Browse types' }).click();
    const types = page.getByRole('list', { name: 'Types' });
    await expect.poll(() => types.textContent()).toContain('hello(name: String): String');
    expect(await types.textContent()).toContain('person(id: Int!): Person');
    await s.browser.shot('browse-types');
    await page.getByLabel('Filter types').fill('pers');
    await expect.poll(() => types.locator(':scope > li').count()).toBe(1);
    expect(await types.textContent()).toContain('name: String!');
    await page.getByText('The schema as SDL').click();
    expect(await page.getByLabel('Schema SDL').textContent()).toContain('type Person {');
    await s.browser.shot('browse-types-filtered');
  });

  it('gives a role a cut-down schema, which is what that role can query', async () => {
    const { page } = s;
    await page.getByRole('link', { name: 'Permissions' }).click();
    await page.getByLabel('New role', { exact: true }).fill('user');
    await page.getByRole('button', { name: 'Add permission' }).click();
    const editor = page.getByLabel('Schema for role user');
    await expect.poll(() => editor.inputValue()).toContain('secret: String');
    await s.browser.shot('permission-prefilled');
    await editor.fill('type Query {\n  hello(name: String): String\n}\n');
    await s.browser.shot('permission-cut-down');
    await page.getByRole('button', { name: 'Save permission' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Edit user' }).isVisible()).toBe(true);
    await s.browser.shot('permission-saved');
    expect((await exported(s)).remote_schemas[0].permissions).toEqual([{ role: 'user', definition: { schema: 'type Query {\n  hello(name: String): String\n}\n' } }]);

    expect(await graphqlAs(s, '{ hello(name: "admin") secret }')).toEqual({ data: { hello: 'Hello admin', secret: 'the secret' } });
    expect(await graphqlAs(s, '{ hello(name: "user") }', 'user')).toEqual({ data: { hello: 'Hello user' } });
    const refused = await graphqlAs(s, '{ secret }', 'user');
    expect(refused.errors[0].message).toContain('secret');
  });

  it('shows why a schema the remote does not have is refused', async () => {
    const { page } = s;
    await page.getByRole('button', { name: 'Edit user' }).click();
    await page.getByLabel('Schema for role user').fill('type Query {\n  goodbye: String\n}\n');
    await page.getByRole('button', { name: 'Save permission' }).click();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent()).toContain('field "goodbye" does not exist in type "Query" of the remote schema (validation-failed at $.args[1]');
    // The refused save logged its HTTP 400 in the browser: the engine's answer, shown above.
    await expectedFailure(s, 400);
    await s.browser.shot('permission-refused');
    expect((await exported(s)).remote_schemas[0].permissions[0].definition.schema).toContain('hello');
    await page.getByRole('button', { name: 'Cancel' }).click();
  });

  it('refuses an unreachable server with the engine\'s error and stores nothing', async () => {
    const { page } = s;
    await page.getByRole('link', { name: 'Add remote schema' }).click();
    await page.getByLabel('Remote schema name').fill('gone');
    await page.getByLabel('GraphQL server URL', { exact: true }).fill(`http://127.0.0.1:${await freePort()}/graphql`);
    await page.getByRole('button', { name: 'Add remote schema' }).click();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.isVisible()).toBe(true);
    expect(await alert.textContent()).toMatch(/remote schema "gone" could not be introspected: .*ECONNREFUSED.*at \$\.args\)/);
    // The refused add logged its HTTP 400 in the browser: the engine's answer, shown above.
    await expectedFailure(s, 400);
    await s.browser.shot('unreachable-refused');
    expect((await exported(s)).remote_schemas.map((r: { name: string }) => r.name)).toEqual(['people']);
  });

  it('adds one whose URL and header come from the environment', async () => {
    const { page } = s;
    await page.getByRole('link', { name: 'Add remote schema' }).click();
    await page.getByLabel('Remote schema name').fill('people_env');
    await page.getByLabel('GraphQL server URL from').selectOption('env');
    await page.getByLabel('GraphQL server URL env var').fill('PEOPLE_URL');
    await page.getByRole('button', { name: 'Add header' }).click();
    await page.getByLabel('Header 1 name').fill('X-Api-Key');
    await page.getByLabel('Header 1 type').selectOption('env');
    await page.getByLabel('Header 1 env var').fill('PEOPLE_KEY');
    await page.getByLabel('Root fields namespace').fill('env_people');
    // The same server's types again: renamed so as not to clash with the first remote schema's.
    await page.getByLabel('Type names prefix').fill('Env');
    await s.browser.shot('add-from-env');
    await page.getByRole('button', { name: 'Add remote schema' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'people_env' }).isVisible()).toBe(true);
    const rs = (await exported(s)).remote_schemas.find((r: { name: string }) => r.name === 'people_env');
    expect(rs.definition).toEqual({ url_from_env: 'PEOPLE_URL', headers: [{ name: 'X-Api-Key', value_from_env: 'PEOPLE_KEY' }], customization: { root_fields_namespace: 'env_people', type_names: { prefix: 'Env' } } });
    expect(remote.calls.at(-1)!.headers['x-api-key']).toBe('from-env');
    expect(await graphqlAs(s, '{ env_people { hello } }')).toEqual({ data: { env_people: { hello: 'Hello world' } } });
    await page.getByRole('button', { name: 'Remove', exact: true }).click();
    await page.getByRole('button', { name: 'Yes, remove' }).click();
    await expect.poll(() => page.getByRole('navigation', { name: 'Remote schemas' }).getByRole('link', { name: 'people_env' }).count()).toBe(0);
  });

  it('modifies, drops a permission, reloads and removes a remote schema', async () => {
    const { page } = s;
    await page.getByRole('navigation', { name: 'Remote schemas' }).getByRole('link', { name: 'people' }).click();
    await page.getByLabel('Type names prefix').fill('ppl_');
    await page.getByLabel('Forward all headers from client').check();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Saved.');
    await s.browser.shot('modified');
    const [rs] = (await exported(s)).remote_schemas;
    expect(rs.definition.customization).toEqual({ type_names: { prefix: 'ppl_' } });
    expect(rs.definition.forward_client_headers).toBe(true);
    expect(rs.permissions).toHaveLength(1);
    expect(await graphqlAs(s, '{ person(id: 3) { __typename name } }')).toEqual({ data: { person: { __typename: 'ppl_Person', name: 'Ann' } } });

    await page.getByRole('link', { name: 'Permissions' }).click();
    await page.getByRole('button', { name: 'Remove user' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Edit user' }).count()).toBe(0);
    await s.browser.shot('permission-removed');
    expect((await exported(s)).remote_schemas[0].permissions).toBeUndefined();
    expect((await graphqlAs(s, '{ hello }', 'user')).errors).toBeDefined();
    await page.getByRole('link', { name: 'Details' }).click();

    const before = remote.calls.length;
    await page.getByRole('button', { name: 'Reload' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Reloaded');
    expect(remote.calls.length).toBeGreaterThan(before);

    await page.getByRole('button', { name: 'Remove', exact: true }).click();
    await s.browser.shot('remove-confirm');
    await page.getByRole('button', { name: 'Yes, remove' }).click();
    await expect.poll(() => page.getByText('No remote schemas yet').isVisible()).toBe(true);
    await s.browser.shot('removed');
    expect((await exported(s)).remote_schemas ?? []).toEqual([]);
  });
});
