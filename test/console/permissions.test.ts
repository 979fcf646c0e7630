/**
 * The Data section's permissions tab and inherited roles page (docs/console.md "Data ›
 * Permissions"), driven in a real browser: a select permission built with the builder, then
 * edited as JSON; an insert permission with a check and a preset from a session variable; a
 * delete permission made and deleted; a refused permission shown with the engine's path and
 * changing nothing; inherited roles added and removed. What the engine stores is checked with
 * export_metadata, and what the role may do with /v1/graphql.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, expectedFailure, graphqlAs, openConsole, ownRowsSelect, signIn, type ConsoleSetting } from '../support/console.js';

let s: ConsoleSetting;
const TAB = '/console/data/default/schema/public/tables/article/permissions';

beforeAll(async () => {
  s = await openConsole('permissions');
  await s.db.sql(`
    CREATE TABLE users (id int PRIMARY KEY, name text NOT NULL);
    CREATE TABLE article (id serial PRIMARY KEY, title text NOT NULL, user_id int NOT NULL REFERENCES users (id), secret text);
    INSERT INTO users VALUES (1, 'ann'), (2, 'bob');
    INSERT INTO article (title, user_id, secret) VALUES ('a1', 1, 's'), ('a2', 1, 's'), ('b1', 2, 's');`);
  for (const name of ['users', 'article']) {
    const r = await s.engine.metadata({ type: 'pg_track_table', args: { source: 'default', table: { schema: 'public', name } } }, ADMIN);
    expect(r.status).toBe(200);
  }
  await s.db.sql(`
    CREATE FUNCTION name_upper(u users) RETURNS text LANGUAGE sql STABLE AS 'SELECT upper(u.name)';
    CREATE FUNCTION user_articles(u users) RETURNS SETOF article LANGUAGE sql STABLE AS 'SELECT * FROM article WHERE user_id = u.id';`);
  for (const [name, fn] of [['name_upper', 'name_upper'], ['articles', 'user_articles']]) {
    const computed = { type: 'pg_add_computed_field', args: { source: 'default', table: { schema: 'public', name: 'users' }, name, definition: { function: { schema: 'public', name: fn }, table_argument: 'u' } } };
    expect((await s.engine.metadata(computed, ADMIN)).status).toBe(200);
  }
  const author = { type: 'pg_create_object_relationship', args: { source: 'default', table: { schema: 'public', name: 'article' }, name: 'author', using: { foreign_key_constraint_on: 'user_id' } } };
  expect((await s.engine.metadata(author, ADMIN)).status).toBe(200);
});

afterAll(async () => {
  await s?.close();
});

async function articleEntry() {
  const r = await s.engine.metadata({ type: 'export_metadata', version: 2, args: {} }, ADMIN);
  return r.body.metadata.sources[0].tables.find((t: { table: { name: string } }) => t.table.name === 'article');
}

const asUser = (userId: string, query: string) => graphqlAs(s, query, 'user', { 'x-service-user-id': userId });

const titles = async (userId: string) => ((await asUser(userId, '{ article(order_by: {id: asc}) { title user_id } }')).data.article as { title: string }[]).map((a) => a.title);

describe('permissions of a table', () => {
  it('builds a select permission with a row filter on a session variable, chosen columns and a limit', async () => {
    const { page } = s;
    await signIn(s, TAB);
    await expect.poll(() => page.getByRole('table', { name: 'Permissions' }).isVisible()).toBe(true);
    await s.browser.shot('grid-empty');
    const rows = await ownRowsSelect(page, 'user', 'user_id');
    expect(await rows.getByLabel('Operator of user_id').inputValue()).toBe('_eq');
    const columns = page.getByRole('group', { name: 'Column select permissions' });
    for (const c of ['id', 'title', 'user_id']) await columns.getByLabel(c, { exact: true }).check();
    await page.getByLabel('Limit number of rows').fill('10');
    await s.browser.shot('select-built');
    await page.getByRole('button', { name: 'Save permissions' }).click();
    await expect.poll(() => page.locator('.notice').textContent()).toBe('Saved the select permission of user.');
    await s.browser.shot('select-saved');

    expect((await articleEntry()).select_permissions).toEqual([
      { role: 'user', permission: { columns: ['id', 'title', 'user_id'], filter: { user_id: { _eq: 'X-Service-User-Id' } }, limit: 10 } },
    ]);
    expect(await page.getByRole('button', { name: 'Edit select permission of user' }).textContent()).toContain('partial');
    expect(await titles('1')).toEqual(['a1', 'a2']);
    expect(await titles('2')).toEqual(['b1']);
    expect((await asUser('1', '{ article { secret } }')).errors[0].message).toContain('secret');
  });

  it('edits the row filter as JSON and back in the builder', async () => {
    const { page } = s;
    const rows = page.getByRole('group', { name: 'Row select permissions' });
    await rows.getByRole('button', { name: 'Edit Row select permissions as JSON' }).click();
    const json = rows.getByLabel('Row select permissions (JSON)');
    expect(JSON.parse(await json.inputValue())).toEqual({ user_id: { _eq: 'X-Service-User-Id' } });
    await json.fill('{"_and": [{"user_id": {"_eq": "X-Service-User-Id"}}, {"title": ');
    await expect.poll(() => rows.getByRole('status').textContent()).toContain('Not a valid boolean expression');
    expect(await page.getByRole('button', { name: 'Save permissions' }).isDisabled()).toBe(true);
    await s.browser.shot('json-invalid');
    await json.fill('{"_and": [{"user_id": {"_eq": "X-Service-User-Id"}}, {"title": {"_like": "a%"}}]}');
    await rows.getByRole('button', { name: 'Edit Row select permissions with the builder' }).click();
    expect(await rows.getByLabel('Operator of _and 2 › title').inputValue()).toBe('_like');
    expect(await rows.getByLabel('Value of _and 2 › title', { exact: true }).inputValue()).toBe('a%');
    await s.browser.shot('json-in-builder');
    await page.getByRole('button', { name: 'Save permissions' }).click();
    await expect.poll(async () => (await articleEntry()).select_permissions.find((p: { role: string }) => p.role === 'user').permission.filter).toEqual({
      _and: [{ user_id: { _eq: 'X-Service-User-Id' } }, { title: { _like: 'a%' } }],
    });
    expect(await titles('1')).toEqual(['a1', 'a2']);
    expect(await titles('2')).toEqual([]);
  });

  it('shows the engine refusing a filter on a column that does not exist, with its path, and changes nothing', async () => {
    const { page } = s;
    const before = await articleEntry();
    const rows = page.getByRole('group', { name: 'Row select permissions' });
    await rows.getByRole('button', { name: 'Edit Row select permissions as JSON' }).click();
    await rows.getByLabel('Row select permissions (JSON)').fill('{"nope": {"_eq": 1}}');
    await page.getByRole('button', { name: 'Save permissions' }).click();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent()).toContain('nope');
    expect(await alert.textContent()).toContain('(not-exists at $.args[1].args)');
    await s.browser.shot('refused');
    expect(await articleEntry()).toEqual(before);
    // The refused call logged its HTTP 400 in the browser: the engine's answer, not a console fault.
    await expectedFailure(s, 400);
  });

  it('makes an insert permission with a check and a column preset from a session variable', async () => {
    const { page } = s;
    await page.getByRole('button', { name: 'Edit insert permission of user' }).click();
    const check = page.getByRole('group', { name: 'Row insert permissions' });
    expect(await check.getByRole('radio', { name: 'With same custom check as select' }).isVisible()).toBe(true);
    await check.getByRole('radio', { name: 'With custom check' }).check();
    await check.getByLabel('Add condition').selectOption('title');
    await check.getByLabel('Operator of title').selectOption('_like');
    await check.getByLabel('Value of title', { exact: true }).fill('a%');
    await check.getByLabel('Add condition').selectOption('id');
    await check.getByLabel('Operator of id').selectOption('_cgt');
    expect(await check.getByLabel('Column compared with id').inputValue()).toBe('user_id');
    const columns = page.getByRole('group', { name: 'Column insert permissions' });
    await columns.getByRole('button', { name: /Toggle all/ }).click();
    for (const c of ['id', 'user_id', 'secret']) await columns.getByLabel(c, { exact: true }).uncheck();
    await page.getByRole('button', { name: 'Add preset' }).click();
    await page.getByLabel('Preset column 1').selectOption('user_id');
    await page.getByLabel('Preset type 1').selectOption('session');
    await page.getByLabel('Preset value 1').fill('X-Service-User-Id');
    await s.browser.shot('insert-built');
    await page.getByRole('button', { name: 'Save permissions' }).click();
    await expect.poll(() => page.locator('.notice').textContent()).toBe('Saved the insert permission of user.');
    await s.browser.shot('insert-saved');
    expect((await articleEntry()).insert_permissions).toEqual([
      { role: 'user', permission: { check: { title: { _like: 'a%' }, id: { _cgt: 'user_id' } }, columns: ['title'], set: { user_id: 'X-Service-User-Id' } } },
    ]);
    const inserted = await asUser('2', 'mutation { insert_article_one(object: {title: "a-bob"}) { title user_id } }');
    expect(inserted).toEqual({ data: { insert_article_one: { title: 'a-bob', user_id: 2 } } });
    const refused = await asUser('2', 'mutation { insert_article_one(object: {title: "zz"}) { title } }');
    expect(refused.errors[0].message).toContain('check constraint');
  });

  it('gives a role every row and column, aggregations and only some root fields', async () => {
    const { page } = s;
    await page.getByLabel('New role').fill('guest');
    await page.getByRole('button', { name: 'Edit select permission of guest' }).click();
    await page.getByRole('group', { name: 'Column select permissions' }).getByRole('button', { name: /Toggle all/ }).click();
    await page.getByLabel('Allow aggregation queries').check();
    await page.getByRole('group', { name: 'Query root fields' }).getByLabel('select_by_pk', { exact: true }).uncheck();
    const subscriptions = page.getByRole('group', { name: 'Subscription root fields' });
    for (const f of ['select', 'select_by_pk', 'select_aggregate', 'select_stream']) await subscriptions.getByLabel(f, { exact: true }).uncheck();
    await s.browser.shot('select-guest');
    await page.getByRole('button', { name: 'Save permissions' }).click();
    await expect.poll(() => page.locator('.notice').textContent()).toBe('Saved the select permission of guest.');
    expect((await articleEntry()).select_permissions.find((p: { role: string }) => p.role === 'guest')).toEqual({
      role: 'guest',
      permission: { columns: ['id', 'title', 'user_id', 'secret'], filter: {}, allow_aggregations: true, query_root_fields: ['select', 'select_aggregate'], subscription_root_fields: [] },
    });
    expect(await page.getByRole('button', { name: 'Edit select permission of guest' }).textContent()).toContain('full');
    await s.browser.shot('select-guest-saved');
    // Every row: the three articles and the one user 2 inserted.
    const guest = (query: string) => graphqlAs(s, query, 'guest');
    expect(await guest('{ article_aggregate { aggregate { count } } }')).toEqual({ data: { article_aggregate: { aggregate: { count: 4 } } } });
    expect((await guest('{ article_by_pk(id: 1) { id } }')).errors[0].message).toContain('article_by_pk');
  });

  it('grants a scalar computed field and filters on it', async () => {
    const { page } = s;
    await page.goto(`${s.engine.url}/console/data/default/schema/public/tables/users/permissions`);
    await page.getByLabel('New role').fill('reader');
    await page.getByRole('button', { name: 'Edit select permission of reader' }).click();
    const computed = page.getByRole('group', { name: 'Computed fields' });
    // `articles` returns rows: its permissions come from article's, so it is not offered.
    expect(await computed.getByRole('checkbox').count()).toBe(1);
    await computed.getByLabel('name_upper', { exact: true }).check();
    await page.getByRole('group', { name: 'Column select permissions' }).getByLabel('id', { exact: true }).check();
    const rows = page.getByRole('group', { name: 'Row select permissions' });
    await rows.getByRole('radio', { name: 'With custom check' }).check();
    await rows.getByLabel('Add condition').selectOption('name_upper');
    await rows.getByLabel('Value of name_upper', { exact: true }).fill('ANN');
    await s.browser.shot('computed-field');
    await page.getByRole('button', { name: 'Save permissions' }).click();
    await expect.poll(() => page.locator('.notice').textContent()).toBe('Saved the select permission of reader.');
    const exported = await s.engine.metadata({ type: 'export_metadata', version: 2, args: {} }, ADMIN);
    const users = exported.body.metadata.sources[0].tables.find((t: { table: { name: string } }) => t.table.name === 'users');
    expect(users.select_permissions).toEqual([{ role: 'reader', permission: { columns: ['id'], computed_fields: ['name_upper'], filter: { name_upper: { _eq: 'ANN' } } } }]);
    const r = await s.engine.post('/v1/graphql', { query: '{ users { id name_upper } }' }, { ...ADMIN, 'x-service-role': 'reader' });
    expect(r.body).toEqual({ data: { users: [{ id: 1, name_upper: 'ANN' }] } });
    await page.goto(s.engine.url + TAB);
    await expect.poll(() => page.getByRole('table', { name: 'Permissions' }).isVisible()).toBe(true);
  });

  it('builds an update permission through a relationship, _or, _not and _exists, with a post-update check and a static preset', async () => {
    const { page } = s;
    await page.getByRole('button', { name: 'Edit update permission of user' }).click();
    const pre = page.getByRole('group', { name: 'Pre-update check' });
    await pre.getByRole('radio', { name: 'With custom check' }).check();
    await pre.getByLabel('Add condition', { exact: true }).selectOption('author');
    await pre.getByLabel('Add condition in author').selectOption('name');
    await pre.getByLabel('Value of author › name', { exact: true }).fill('ann');
    await pre.getByLabel('Add condition', { exact: true }).selectOption('_or');
    await pre.getByLabel('Add condition in _or 1').selectOption('id');
    await pre.getByLabel('Operator of _or 1 › id').selectOption('_in');
    await pre.getByLabel('Value of _or 1 › id', { exact: true }).fill('1, 2');
    await pre.getByRole('button', { name: 'Add expression to _or' }).click();
    await pre.getByLabel('Add condition in _or 2').selectOption('_not');
    await pre.getByLabel('Add condition in _or 2 › _not').selectOption('title');
    await pre.getByLabel('Operator of _or 2 › _not › title').selectOption('_is_null');
    await pre.getByLabel('Add condition', { exact: true }).selectOption('_exists');
    await pre.getByLabel('Table of _exists').selectOption('public.users');
    await pre.getByLabel('Add condition in _exists › _where').selectOption('id');
    await pre.getByRole('button', { name: 'Use X-Service-User-Id as value of _exists › _where › id' }).click();
    const post = page.getByRole('group', { name: 'Post-update check' });
    await post.getByRole('radio', { name: 'With custom check' }).check();
    await post.getByLabel('Add condition', { exact: true }).selectOption('title');
    await post.getByLabel('Operator of title').selectOption('_like');
    await post.getByLabel('Value of title', { exact: true }).fill('a%');
    await page.getByRole('group', { name: 'Column update permissions' }).getByLabel('title', { exact: true }).check();
    await page.getByRole('button', { name: 'Add preset' }).click();
    await page.getByLabel('Preset column 1').selectOption('secret');
    await page.getByLabel('Preset value 1').fill('edited');
    await s.browser.shot('update-built');
    await page.getByRole('button', { name: 'Save permissions' }).click();
    await expect.poll(() => page.locator('.notice').textContent()).toBe('Saved the update permission of user.');
    await s.browser.shot('update-saved');
    expect((await articleEntry()).update_permissions).toEqual([
      {
        role: 'user',
        permission: {
          columns: ['title'],
          filter: {
            author: { name: { _eq: 'ann' } },
            _or: [{ id: { _in: [1, 2] } }, { _not: { title: { _is_null: true } } }],
            _exists: { _table: { schema: 'public', name: 'users' }, _where: { id: { _eq: 'X-Service-User-Id' } } },
          },
          check: { title: { _like: 'a%' } },
          set: { secret: 'edited' },
        },
      },
    ]);
    const update = (title: string) => `mutation { update_article(where: {}, _set: {title: "${title}"}) { affected_rows } }`;
    expect(await asUser('1', update('a-new'))).toEqual({ data: { update_article: { affected_rows: 2 } } });
    // No user 3: the _exists condition holds for no row.
    expect(await asUser('3', update('a-new'))).toEqual({ data: { update_article: { affected_rows: 0 } } });
    expect((await asUser('1', update('zz'))).errors[0].message).toContain('check constraint');
    expect((await s.db.sql("SELECT title, secret FROM article WHERE user_id = 1 ORDER BY id")).rows).toEqual([
      { title: 'a-new', secret: 'edited' },
      { title: 'a-new', secret: 'edited' },
    ]);
  });

  it('makes a backend-only delete permission with the same check as select, cloned to another role, then deletes it', async () => {
    const { page } = s;
    // From the keyboard: a cell is a real button.
    await page.getByRole('button', { name: 'Edit delete permission of user' }).focus();
    await page.keyboard.press('Enter');
    await page.getByLabel('Allow from backends only').check();
    await page.getByRole('group', { name: 'Row delete permissions' }).getByRole('radio', { name: 'With same custom check as select' }).check();
    await page.getByRole('group', { name: 'Clone permissions' }).getByLabel('guest', { exact: true }).check();
    await page.getByRole('button', { name: 'Save permissions' }).click();
    await expect.poll(() => page.locator('.notice').textContent()).toBe('Saved the delete permission of user and of guest.');
    const filter = { _and: [{ user_id: { _eq: 'X-Service-User-Id' } }, { title: { _like: 'a%' } }] };
    expect((await articleEntry()).delete_permissions).toEqual([
      { role: 'guest', permission: { filter, backend_only: true } },
      { role: 'user', permission: { filter, backend_only: true } },
    ]);
    await s.browser.shot('delete-saved');
    await page.getByRole('button', { name: 'Delete permissions' }).click();
    await s.browser.shot('delete-confirm');
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Edit delete permission of user' }).textContent()).toContain('none');
    expect((await articleEntry()).delete_permissions).toEqual([{ role: 'guest', permission: { filter, backend_only: true } }]);
    await s.browser.shot('delete-deleted');
  });
});

describe('inherited roles', () => {
  it('adds, edits and removes an inherited role', async () => {
    const { page } = s;
    const editor = { type: 'pg_create_select_permission', args: { source: 'default', table: { schema: 'public', name: 'users' }, role: 'editor', permission: { columns: ['id'], filter: {} } } };
    expect((await s.engine.metadata(editor, ADMIN)).status).toBe(200);
    await page.goto(`${s.engine.url}/console/data/inherited-roles`);
    await expect.poll(() => page.getByText('No inherited roles.').isVisible()).toBe(true);
    await s.browser.shot('inherited-none');
    await page.getByLabel('Inherited role name').fill('user_editor');
    const parents = page.getByRole('group', { name: 'Roles to inherit from' });
    await parents.getByLabel('user', { exact: true }).check();
    await parents.getByLabel('editor', { exact: true }).check();
    await page.getByRole('button', { name: 'Add inherited role' }).click();
    await expect.poll(() => page.getByRole('table', { name: 'Inherited roles' }).getByRole('row', { name: /user_editor/ }).textContent()).toContain('user, editor');
    await s.browser.shot('inherited-added');
    const exported = await s.engine.metadata({ type: 'export_metadata', version: 2, args: {} }, ADMIN);
    expect(exported.body.metadata.inherited_roles).toEqual([{ role_name: 'user_editor', role_set: ['user', 'editor'] }]);
    // The table's grid lists it, with what it inherits until it has a permission of its own.
    await page.goto(s.engine.url + TAB);
    await expect.poll(() => page.getByRole('button', { name: 'Edit select permission of user_editor' }).textContent()).toContain('inherited');
    expect(await page.getByRole('row', { name: /^user_editor/ }).getByRole('rowheader').textContent()).toBe('user_editorinherits from user, editor');
    await s.browser.shot('inherited-in-grid');
    await page.goto(`${s.engine.url}/console/data/inherited-roles`);
    await page.getByRole('button', { name: 'Edit inherited role user_editor' }).click();
    const form = page.getByRole('form', { name: 'Edit inherited role user_editor' });
    await form.getByLabel('editor', { exact: true }).uncheck();
    await form.getByLabel('guest', { exact: true }).check();
    await s.browser.shot('inherited-editing');
    await form.getByRole('button', { name: 'Save inherited role' }).click();
    await expect.poll(() => page.getByRole('table', { name: 'Inherited roles' }).getByRole('row', { name: /user_editor/ }).textContent()).toContain('user, guest');
    const edited = await s.engine.metadata({ type: 'export_metadata', version: 2, args: {} }, ADMIN);
    expect(edited.body.metadata.inherited_roles).toEqual([{ role_name: 'user_editor', role_set: ['user', 'guest'] }]);
    await page.getByRole('button', { name: 'Remove inherited role user_editor' }).click();
    await expect.poll(() => page.getByText('No inherited roles.').isVisible()).toBe(true);
    await s.browser.shot('inherited-removed');
    const after = await s.engine.metadata({ type: 'export_metadata', version: 2, args: {} }, ADMIN);
    expect(after.body.metadata.inherited_roles).toBeUndefined();
  });
});
