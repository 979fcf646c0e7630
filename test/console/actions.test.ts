/**
 * The Actions section (docs/console.md): an action created from SDL (the action definition and
 * its type configuration) with a real handler and called through /v1/graphql, SDL that does not
 * parse and a definition the engine refuses shown where they happen, a request transform
 * previewed (test_webhook_transform) and saved, permissions for roles, a relationship of the
 * output type to a table, deleting, and an asynchronous action whose types join those already
 * there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, expectedFailure, exported, graphqlAs, openConsole, signIn, type ConsoleSetting } from '../support/console.js';
import { ActionHandler } from '../support/action-handler.js';

let s: ConsoleSetting;
let handler: ActionHandler;

const login = (username: string, role?: string) => graphqlAs(s, `mutation { login(username: "${username}", password: "pw") { accessToken } }`, role);

beforeAll(async () => {
  // Answers the action's payload, or the transformed body `{user}`.
  handler = await new ActionHandler({
    // eve's answer has the field the output type gets for its relationship (an unknown field is refused).
    '/login': (body: { input?: { username: string }; user?: string }) => {
      const user = body.input?.username ?? body.user;
      return { body: { accessToken: `token-${user}`, ...(user === 'eve' ? { noteId: 1 } : {}) } };
    },
    '/send': () => ({ body: { ok: true } }),
  }).start();
  s = await openConsole('actions');
  // A table for the output type's relationship, and a role the metadata knows from its
  // permission, offered in the action's permissions.
  await s.engine.post('/v2/query', { type: 'run_sql', args: { sql: "CREATE TABLE note (id int PRIMARY KEY, title text); INSERT INTO note VALUES (1, 'hello')" } }, ADMIN);
  await s.engine.metadata({ type: 'pg_track_table', args: { table: 'note' } }, ADMIN);
  await s.engine.metadata({ type: 'pg_create_select_permission', args: { table: 'note', role: 'viewer', permission: { columns: ['id'], filter: {} } } }, ADMIN);
});

afterAll(async () => {
  await s?.close();
  await handler?.stop();
});

describe('actions', () => {
  it('creates an action from SDL and calls it', async () => {
    const { page } = s;
    await signIn(s, '/console/actions');
    await expect.poll(() => page.getByText('No actions yet').isVisible()).toBe(true);
    await s.browser.shot('empty');
    await page.getByRole('link', { name: 'Create action' }).click();
    await page.getByLabel('Action definition').fill('type Mutation {\n  """Logs a user in"""\n  login(username: String!, password: String!): LoginResponse\n}\n');
    await page.getByLabel('Type configuration').fill('type LoginResponse {\n  accessToken: String!\n}\n');
    await page.getByLabel('Webhook (HTTP/S) handler').fill(handler.url('/login'));
    await s.browser.shot('create-form');
    await page.getByRole('button', { name: 'Create action' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'login' }).isVisible()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/console/actions/login/modify');
    await s.browser.shot('created');
    const m = await exported(s);
    expect(m.actions).toEqual([
      {
        name: 'login',
        comment: 'Logs a user in',
        definition: expect.objectContaining({
          kind: 'synchronous',
          type: 'mutation',
          arguments: [
            { name: 'username', type: 'String!' },
            { name: 'password', type: 'String!' },
          ],
          output_type: 'LoginResponse',
          handler: handler.url('/login'),
        }),
      },
    ]);
    expect(m.custom_types.objects).toEqual([{ name: 'LoginResponse', fields: [{ name: 'accessToken', type: 'String!' }] }]);
    expect(await login('ann')).toEqual({ data: { login: { accessToken: 'token-ann' } } });
    expect(handler.callsTo('/login').at(-1)!.body.input).toEqual({ username: 'ann', password: 'pw' });
    // Printed back for modifying: the definition and the types it uses.
    expect(await page.getByLabel('Action definition').inputValue()).toBe('type Mutation {\n  "Logs a user in"\n  login(username: String!, password: String!): LoginResponse\n}\n');
    expect(await page.getByLabel('Type configuration').inputValue()).toBe('type LoginResponse {\n  accessToken: String!\n}\n');
  });

  it('shows SDL that does not parse, and a definition the engine refuses, where they happen', async () => {
    const { page } = s;
    const types = page.getByLabel('Type configuration');
    await types.fill('type LoginResponse {\n');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Type configuration: Syntax Error');
    await s.browser.shot('sdl-error');
    await types.fill('type LoginResponse {\n  accessToken: Nope!\n}\n');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/Nope.*at \$\.args\[0\]/);
    // The refused save logged its HTTP 400 in the browser: the engine's answer, shown above.
    await expectedFailure(s, 400);
    await s.browser.shot('engine-error');
    expect((await exported(s)).custom_types.objects[0].fields[0].type).toBe('String!');
    await types.fill('type LoginResponse {\n  accessToken: String!\n}\n');
  });

  it('previews a request transform and saves it', async () => {
    const { page } = s;
    await page.getByLabel('Transform the request').check();
    await page.getByLabel('Request body template').fill('{"user": {{$body.input.username}}}');
    await page.getByLabel('Query params').fill('who={{$body.input.username}}');
    await page.getByLabel('Add headers').fill('x-from=console');
    await page.getByRole('button', { name: 'Sample from the definition' }).click();
    expect(JSON.parse(await page.getByLabel('Sample input').inputValue()).input).toEqual({ username: 'username', password: 'password' });
    await page.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByLabel('Transformed request');
    await expect.poll(() => preview.textContent()).toContain(`POST ${handler.url('/login')}?who=username`);
    expect(await preview.textContent()).toContain('x-from: console');
    expect(await preview.textContent()).toContain('"user": "username"');
    await s.browser.shot('transform-preview');
    // A handler read from the environment is previewed with sample variables, not the engine's.
    const handlerField = page.getByLabel('Webhook (HTTP/S) handler');
    await handlerField.fill('{{LOGIN_BASE}}/login');
    await page.getByLabel('Sample env variables').fill('LOGIN_BASE=http://login.example');
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect.poll(() => preview.textContent()).toContain('POST http://login.example/login?who=username');
    await s.browser.shot('transform-preview-env');
    await handlerField.fill(handler.url('/login'));
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Saved.');
    await s.browser.shot('transform-saved');
    expect((await exported(s)).actions[0].definition.request_transform).toEqual({
      version: 2,
      template_engine: 'Kriti',
      query_params: { who: '{{$body.input.username}}' },
      request_headers: { add_headers: { 'x-from': 'console' }, remove_headers: [] },
      body: { action: 'transform', template: '{"user": {{$body.input.username}}}' },
    });
    expect(await login('bob')).toEqual({ data: { login: { accessToken: 'token-bob' } } });
    const call = handler.calls.at(-1)!;
    expect(call.body).toEqual({ user: 'bob' });
    expect(call.headers['x-from']).toBe('console');
  });

  it('lets roles run the action once they have a permission', async () => {
    const { page } = s;
    expect((await login('cy', 'user')).errors).toBeDefined();
    await page.getByRole('navigation', { name: 'Action' }).getByRole('link', { name: 'Permissions' }).click();
    const roles = page.getByRole('table', { name: 'Roles' });
    await expect.poll(() => roles.getByRole('row', { name: /viewer/ }).textContent()).toContain('not allowed');
    await s.browser.shot('permissions');
    await page.getByLabel('New role', { exact: true }).fill('user');
    await page.getByRole('button', { name: 'Add permission' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Remove user' }).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Allow viewer' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Remove viewer' }).isVisible()).toBe(true);
    await s.browser.shot('permissions-added');
    expect((await exported(s)).actions[0].permissions).toEqual([{ role: 'user' }, { role: 'viewer' }]);
    expect(await login('cy', 'user')).toEqual({ data: { login: { accessToken: 'token-cy' } } });
    expect(await login('di', 'viewer')).toEqual({ data: { login: { accessToken: 'token-di' } } });
    await page.getByRole('button', { name: 'Remove viewer' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Allow viewer' }).isVisible()).toBe(true);
    await s.browser.shot('permission-removed');
    expect((await exported(s)).actions[0].permissions).toEqual([{ role: 'user' }]);
    expect((await login('di', 'viewer')).errors).toBeDefined();
  });

  it('relates the output type to a table', async () => {
    const { page } = s;
    await page.getByRole('navigation', { name: 'Action' }).getByRole('link', { name: 'Modify' }).click();
    await page.getByLabel('Type configuration').fill('type LoginResponse {\n  accessToken: String!\n  noteId: Int\n}\n');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Saved.');
    await page.getByRole('navigation', { name: 'Action' }).getByRole('link', { name: 'Relationships' }).click();
    await page.getByLabel('Relationship name').fill('note');
    await page.getByLabel('Reference table').selectOption('default/public/note');
    await page.getByLabel('From field').selectOption('noteId');
    await page.getByLabel('To column').fill('id');
    await s.browser.shot('relationship-form');
    await page.getByRole('button', { name: 'Add relationship' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Remove note' }).isVisible()).toBe(true);
    await s.browser.shot('relationship-added');
    const [output] = (await exported(s)).custom_types.objects;
    expect(output.relationships).toEqual([expect.objectContaining({ name: 'note', type: 'object', remote_table: { schema: 'public', name: 'note' }, field_mapping: { noteId: 'id' } })]);
    const related = await s.engine.post('/v1/graphql', { query: 'mutation { login(username: "eve", password: "pw") { accessToken note { title } } }' }, ADMIN);
    expect(related.body).toEqual({ data: { login: { accessToken: 'token-eve', note: { title: 'hello' } } } });
    await page.getByRole('button', { name: 'Remove note' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Remove note' }).count()).toBe(0);
    expect((await exported(s)).custom_types.objects[0].relationships).toBeUndefined();
  });

  it('deletes the action', async () => {
    const { page } = s;
    await page.getByRole('navigation', { name: 'Action' }).getByRole('link', { name: 'Modify' }).click();
    await page.getByRole('button', { name: 'Delete action' }).click();
    await s.browser.shot('delete-confirm');
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await expect.poll(() => page.getByText('No actions yet').isVisible()).toBe(true);
    await s.browser.shot('deleted');
    expect((await exported(s)).actions ?? []).toEqual([]);
  });

  it('creates an asynchronous action, keeping the custom types already there', async () => {
    const { page } = s;
    await page.getByRole('link', { name: 'Create action' }).click();
    await page.getByLabel('Action definition').fill('type Mutation {\n  sendEmail(to: String!): SendResult\n}\n');
    await page.getByLabel('Type configuration').fill('type SendResult {\n  ok: Boolean!\n}\n');
    await page.getByLabel('Webhook (HTTP/S) handler').fill(handler.url('/send'));
    await page.getByLabel('Kind').selectOption('asynchronous');
    await s.browser.shot('create-async');
    await page.getByRole('button', { name: 'Create action' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'sendEmail' }).isVisible()).toBe(true);
    const m = await exported(s);
    expect(m.actions[0].definition.kind).toBe('asynchronous');
    expect(m.custom_types.objects.map((o: { name: string }) => o.name)).toEqual(['LoginResponse', 'SendResult']);
    const sent = (await s.engine.post('/v1/graphql', { query: 'mutation { sendEmail(to: "a@b.c") }' }, ADMIN)).body;
    expect(sent.data.sendEmail).toMatch(/^[0-9a-f-]{36}$/);
  });
});
