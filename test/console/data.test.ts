/**
 * The console's Data section (docs/console.md), as a new user goes through it: tables created in
 * the SQL editor with "Track this", the relationships their foreign key suggests, rows inserted,
 * browsed (filters, sort, pages), edited and deleted, a table's GraphQL names and enum setting,
 * a refused SQL, and a second source added and removed; then more of it: functions, manual and
 * remote relationships, computed fields, columns, foreign keys, a new table's form, untracking,
 * renaming and deleting. Each step checks what the engine now holds through its own API (or the
 * database, for DDL). The steps share one engine and run in order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, expectedFailure, exported, openConsole, signIn, type ConsoleSetting } from '../support/console.js';
import { RemoteGraphQL } from '../support/remote-graphql.js';

let s: ConsoleSetting;

beforeAll(async () => {
  s = await openConsole('data');
}, 30_000);

afterAll(async () => {
  await s?.close();
});

const tableEntry = async (name: string) => (await exported(s)).sources[0].tables.find((t: any) => t.table.name === name);
const dataNav = () => s.page.getByRole('navigation', { name: 'Data' });

describe('the SQL editor', () => {
  it('creates two tables with "Track this": both are tracked, in the side navigation and the metadata', async () => {
    const { page } = s;
    await signIn(s, '/console/data/sql');
    await s.browser.shot('sql-editor');
    await page.getByLabel('SQL', { exact: true }).fill(
      'CREATE TABLE author (id serial PRIMARY KEY, name text);\nCREATE TABLE article (id serial PRIMARY KEY, title text, author_id int REFERENCES author (id));',
    );
    await page.getByLabel('Track this').check();
    await page.getByRole('button', { name: 'Run!' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Tracked: public.author, public.article.');
    await expect.poll(() => dataNav().getByRole('link', { name: 'article', exact: true }).isVisible()).toBe(true);
    expect(await dataNav().getByRole('link', { name: 'author', exact: true }).isVisible()).toBe(true);
    await s.browser.shot('sql-tracked');
    await dataNav().getByLabel('Search tables').fill('auth');
    await expect.poll(() => dataNav().getByRole('link', { name: 'article', exact: true }).count()).toBe(0);
    expect(await dataNav().getByRole('link', { name: 'author', exact: true }).isVisible()).toBe(true);
    await dataNav().getByLabel('Search tables').fill('');
    expect((await exported(s)).sources[0].tables.map((t: any) => t.table)).toEqual([
      { schema: 'public', name: 'author' },
      { schema: 'public', name: 'article' },
    ]);
  });

  it('shows rows as a table, header first', async () => {
    const { page } = s;
    await page.getByLabel('SQL', { exact: true }).fill("SELECT 1 AS one, 'two' AS two, NULL AS three");
    await page.getByRole('button', { name: 'Run!' }).click();
    const result = page.getByRole('table', { name: 'Result' });
    await expect.poll(() => result.getByRole('columnheader').allTextContents()).toEqual(['one', 'two', 'three']);
    expect(await result.getByRole('cell').allTextContents()).toEqual(['1', 'two', 'NULL']);
    await s.browser.shot('sql-rows');
  });

  it("shows a refused SQL's error as the engine words it", async () => {
    const { page } = s;
    await page.getByLabel('SQL', { exact: true }).fill('SELECT * FROM nowhere');
    await page.getByRole('button', { name: 'Run!' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('relation "nowhere" does not exist');
    expect(await page.getByRole('alert').textContent()).toContain('query execution failed (postgres-error at $');
    await s.browser.shot('sql-refused');
    // The refused run_sql logged its HTTP 400 in the browser: the refusal is what this test wants.
    await expectedFailure(s, 400);
  });
});

describe('relationships', () => {
  it('adds the relationships the foreign key suggests, both ways', async () => {
    const { page } = s;
    await dataNav().getByRole('link', { name: 'article', exact: true }).click();
    await page.getByRole('navigation', { name: 'Table' }).getByRole('link', { name: 'Relationships' }).click();
    const suggested = page.getByRole('region', { name: 'Suggested relationships' });
    await expect.poll(() => suggested.textContent()).toContain('article → author (author_id → id)');
    await s.browser.shot('relationships-suggested');
    await suggested.getByRole('button', { name: 'Add author' }).click();
    await expect.poll(() => page.getByRole('table', { name: 'Relationships' }).textContent()).toContain('foreign key on author_id');

    await dataNav().getByRole('link', { name: 'author', exact: true }).click();
    await page.getByRole('navigation', { name: 'Table' }).getByRole('link', { name: 'Relationships' }).click();
    await page.getByRole('button', { name: 'Add articles' }).click();
    await expect.poll(() => page.getByRole('table', { name: 'Relationships' }).textContent()).toContain('foreign key on article (author_id)');
    await s.browser.shot('relationships-added');
    expect((await tableEntry('article')).object_relationships).toEqual([{ name: 'author', using: { foreign_key_constraint_on: 'author_id' } }]);
    expect((await tableEntry('author')).array_relationships).toEqual([{ name: 'articles', using: { foreign_key_constraint_on: { table: { schema: 'public', name: 'article' }, column: 'author_id' } } }]);
  });

  it('renames a relationship and comments on it', async () => {
    const { page } = s;
    await page.getByRole('button', { name: 'Rename articles' }).click();
    await page.getByLabel('New name of articles').fill('writings');
    await page.getByRole('button', { name: 'Save name' }).click();
    await expect.poll(async () => (await tableEntry('author')).array_relationships[0].name).toBe('writings');
    await page.getByRole('button', { name: 'Comment on writings' }).click();
    await page.getByLabel('Comment of writings').fill('what they wrote');
    await page.getByRole('button', { name: 'Save comment' }).click();
    await expect.poll(async () => (await tableEntry('author')).array_relationships[0].comment).toBe('what they wrote');
    await expect.poll(() => page.getByRole('table', { name: 'Relationships' }).textContent()).toContain('what they wrote');
    await s.browser.shot('relationship-renamed');
  });
});

describe('rows', () => {
  it('inserts a row and shows it, then inserts it again', async () => {
    const { page } = s;
    await page.getByRole('navigation', { name: 'Table' }).getByRole('link', { name: 'Insert row' }).click();
    await page.getByLabel('name', { exact: true }).fill('Ann');
    await page.getByRole('button', { name: 'Save' }).click();
    const inserted = page.getByRole('region', { name: 'Inserted row' });
    await expect.poll(() => inserted.getByRole('cell').allTextContents()).toEqual(['1', 'Ann']);
    await s.browser.shot('row-inserted');
    await page.getByRole('button', { name: 'Insert again' }).click();
    await expect.poll(() => inserted.getByRole('cell').allTextContents()).toEqual(['2', 'Ann']);
    expect((await s.db.sql('SELECT id, name FROM author ORDER BY id')).rows).toEqual([
      { id: 1, name: 'Ann' },
      { id: 2, name: 'Ann' },
    ]);
  });

  it('inserts JSON into a jsonb column as JSON, and leaves other fields to their defaults', async () => {
    const { page } = s;
    await s.db.sql('CREATE TABLE note (id serial PRIMARY KEY, body jsonb, done boolean NOT NULL DEFAULT false)');
    expect((await s.engine.metadata({ type: 'pg_track_table', args: { source: 'default', table: 'note' } }, ADMIN)).status).toBe(200);
    await page.goto(`${s.engine.url}/console/data/default/schema/public/tables/note/insert`);
    await page.getByLabel('body', { exact: true }).fill('{"tags": ["a", "b"]}');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('region', { name: 'Inserted row' }).getByRole('cell').allTextContents()).toEqual(['1', '{"tags":["a","b"]}', 'false']);
    await s.browser.shot('row-inserted-json');
    expect((await s.db.sql("SELECT body -> 'tags' AS tags, done FROM note")).rows).toEqual([{ tags: ['a', 'b'], done: false }]);
  });

  it('browses the rows a page at a time, filtered and sorted', async () => {
    const { page } = s;
    await s.db.sql("INSERT INTO author (name) SELECT 'writer ' || g FROM generate_series(1, 12) g");
    await dataNav().getByRole('link', { name: 'author', exact: true }).click();
    const rows = page.getByRole('table', { name: 'Rows' });
    await expect.poll(() => page.getByRole('navigation', { name: 'Pages' }).getByRole('status').textContent()).toBe('Page 1 of 2 (14 rows)');
    expect(await rows.getByRole('columnheader').allTextContents()).toEqual(['Actions', 'id', 'name']);
    expect(await rows.getByRole('row').count()).toBe(11);
    await s.browser.shot('browse-page-1');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => rows.getByRole('row').count()).toBe(5);
    await s.browser.shot('browse-page-2');
    await page.getByLabel('Rows per page').selectOption('50');
    await expect.poll(() => rows.getByRole('row').count()).toBe(15);

    await page.getByRole('button', { name: 'Add filter' }).click();
    await page.getByLabel('Filter 1 column').selectOption('name');
    await page.getByLabel('Filter 1 operator').selectOption('_like');
    await page.getByLabel('Filter 1 value').fill('writer 1%');
    await page.getByRole('button', { name: 'Add filter' }).click();
    await page.getByLabel('Filter 2 column').selectOption('id');
    await page.getByLabel('Filter 2 operator').selectOption('_gt');
    await page.getByLabel('Filter 2 value').fill('3');
    await page.getByLabel('Sort by').selectOption('id');
    await page.getByLabel('Sort order').selectOption('desc');
    await page.getByRole('button', { name: 'Run query' }).click();
    // writer 1, 10, 11 and 12 (ids 3, 12, 13, 14), those with an id above 3, the last first.
    await expect.poll(() => rows.locator('tbody tr td:nth-child(3)').allTextContents()).toEqual(['writer 12', 'writer 11', 'writer 10']);
    expect(await page.getByRole('navigation', { name: 'Pages' }).getByRole('status').textContent()).toBe('Page 1 of 1 (3 rows)');
    await s.browser.shot('browse-filtered-sorted');
    await page.getByRole('button', { name: 'Remove filter 2' }).click();
    await page.getByRole('button', { name: 'Remove filter 1' }).click();
    await page.getByRole('button', { name: 'Run query' }).click();
    await expect.poll(() => rows.getByRole('row').count()).toBe(15);
  });

  it('edits a row and deletes another', async () => {
    const { page } = s;
    const rows = page.getByRole('table', { name: 'Rows' });
    await rows.getByRole('row').filter({ hasText: 'writer 3' }).getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('name', { exact: true }).fill('Edited');
    await s.browser.shot('row-editing');
    await page.getByRole('button', { name: 'Save row' }).click();
    await expect.poll(() => rows.getByRole('row').filter({ hasText: 'Edited' }).count()).toBe(1);
    expect((await s.db.sql('SELECT name FROM author WHERE id = 5')).rows).toEqual([{ name: 'Edited' }]);

    await rows.getByRole('row').filter({ hasText: 'writer 5' }).getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('radiogroup', { name: 'What name is' }).getByLabel('NULL').check();
    await page.getByRole('button', { name: 'Save row' }).click();
    await expect.poll(() => rows.getByRole('row').filter({ hasText: 'writer 5' }).count()).toBe(0);
    expect((await s.db.sql('SELECT name FROM author WHERE id = 7')).rows).toEqual([{ name: null }]);

    const doomed = rows.getByRole('row').filter({ hasText: 'writer 4' });
    await doomed.getByRole('button', { name: 'Delete' }).click();
    await s.browser.shot('row-delete-confirm');
    await doomed.getByRole('button', { name: 'Yes, delete' }).click();
    await expect.poll(() => rows.getByRole('row').filter({ hasText: 'writer 4' }).count()).toBe(0);
    expect((await s.db.sql("SELECT count(*)::int AS n FROM author WHERE name = 'writer 4'")).rows).toEqual([{ n: 0 }]);
    await s.browser.shot('row-deleted');
  });
});

describe('a table and its schema', () => {
  it('sets a custom root field', async () => {
    const { page } = s;
    await page.getByRole('navigation', { name: 'Table' }).getByRole('link', { name: 'Modify' }).click();
    await page.getByLabel('select', { exact: true }).fill('writers');
    await page.getByLabel('GraphQL name of name').fill('fullName');
    await page.getByRole('button', { name: 'Save customization' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Customization saved.');
    await s.browser.shot('modify-customized');
    expect((await tableEntry('author')).configuration).toEqual({ custom_root_fields: { select: 'writers' }, column_config: { name: { custom_name: 'fullName' } } });
  });

  it('tracks a table from its schema page and sets it as an enum', async () => {
    const { page } = s;
    await s.db.sql("CREATE TABLE article_status (value text PRIMARY KEY, comment text); INSERT INTO article_status VALUES ('draft', 'Draft'), ('published', 'Published')");
    await dataNav().getByRole('link', { name: 'public', exact: true }).click();
    await page.getByRole('button', { name: 'Track article_status' }).click();
    await expect.poll(() => dataNav().getByRole('link', { name: 'article_status', exact: true }).isVisible()).toBe(true);
    await s.browser.shot('schema-page');
    await dataNav().getByRole('link', { name: 'article_status', exact: true }).click();
    await page.getByRole('navigation', { name: 'Table' }).getByRole('link', { name: 'Modify' }).click();
    await page.getByLabel('Set as enum').click();
    await expect.poll(() => page.getByLabel('Set as enum').isChecked()).toBe(true);
    await expect.poll(async () => (await tableEntry('article_status')).is_enum).toBe(true);
    await s.browser.shot('modify-enum');
  });
});

describe('sources', () => {
  it("lists a source's schemas and creates one", async () => {
    const { page } = s;
    await dataNav().getByRole('link', { name: 'default', exact: true }).click();
    await expect.poll(() => page.getByRole('list', { name: 'Schemas' }).textContent()).toContain('public');
    await page.getByLabel('Schema name').fill('extra');
    await page.getByRole('button', { name: 'Create schema' }).click();
    await expect.poll(() => page.getByRole('list', { name: 'Schemas' }).getByRole('link', { name: 'extra' }).isVisible()).toBe(true);
    await s.browser.shot('source-schemas');
  });

  it('adds a second source, edits its pool, reloads it and removes it', async () => {
    const { page } = s;
    await dataNav().getByRole('link', { name: 'Sources', exact: true }).click();
    await page.getByLabel('Database name').fill('second');
    await page.getByLabel('Database URL', { exact: true }).fill(s.db.url);
    await page.getByLabel('Max connections').fill('3');
    await page.getByRole('button', { name: 'Connect Database' }).click();
    const sources = page.getByRole('table', { name: 'Sources' });
    await expect.poll(() => sources.getByRole('link', { name: 'second' }).isVisible()).toBe(true);
    expect(await dataNav().getByRole('link', { name: 'second', exact: true }).isVisible()).toBe(true);
    expect((await exported(s)).sources[1]).toEqual({ name: 'second', kind: 'postgres', tables: [], configuration: { connection_info: expect.objectContaining({ database_url: s.db.url, pool_settings: { max_connections: 3 } }) } });
    const hidden = new URL(s.db.url);
    hidden.password = '*****';
    expect(await sources.getByRole('row').filter({ hasText: 'second' }).getByRole('cell').nth(2).textContent()).toBe(hidden.toString());
    await s.browser.shot('source-added');

    const row = sources.getByRole('row').filter({ hasText: 'second' });
    await row.getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('form', { name: 'Connection settings of second' }).getByLabel('Idle timeout (seconds)').fill('30');
    await page.getByRole('button', { name: 'Update connection' }).click();
    await expect.poll(async () => (await exported(s)).sources[1].configuration.connection_info.pool_settings).toEqual({ max_connections: 3, idle_timeout: 30 });
    await row.getByRole('button', { name: 'Reload' }).click();
    await expect.poll(() => row.textContent()).toContain('Reloaded second.');
    await s.browser.shot('source-edited');

    await row.getByRole('button', { name: 'Remove' }).click();
    await row.getByRole('button', { name: 'Yes, remove' }).click();
    await expect.poll(() => sources.getByRole('link', { name: 'second' }).count()).toBe(0);
    expect((await exported(s)).sources.map((x: any) => x.name)).toEqual(['default']);
    await s.browser.shot('source-removed');
  });

  it('refuses a source whose environment variable is not set, saying so', async () => {
    const { page } = s;
    await page.getByLabel('Database name').fill('third');
    await page.getByLabel('Connect database via').selectOption('env');
    await page.getByLabel('Environment variable', { exact: true }).fill('NO_SUCH_DATABASE_URL');
    await page.getByRole('button', { name: 'Connect Database' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('NO_SUCH_DATABASE_URL');
    await s.browser.shot('source-refused');
    expect((await exported(s)).sources.map((x: any) => x.name)).toEqual(['default']);
    // The refused pg_add_source logged its HTTP 400 in the browser: the refusal is what this test wants.
    await expectedFailure(s, 400);
  });
});

describe('more of a table', () => {
  it('tracks a function the SQL editor creates', async () => {
    const { page } = s;
    await dataNav().getByRole('link', { name: 'SQL', exact: true }).click();
    // A trigger function is no root field: "Track this" leaves it out.
    await page.getByLabel('SQL', { exact: true }).fill(
      "CREATE OR REPLACE FUNCTION search_authors(q text) RETURNS SETOF author AS $$ SELECT * FROM author WHERE name ILIKE q $$ LANGUAGE sql STABLE;\nCREATE FUNCTION touch() RETURNS trigger AS $$ BEGIN RETURN NEW; END $$ LANGUAGE plpgsql;",
    );
    expect(await page.getByLabel('Track this').isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Run!' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Tracked: public.search_authors.');
    expect((await exported(s)).sources[0].functions).toEqual([{ function: { schema: 'public', name: 'search_authors' } }]);
    await s.browser.shot('sql-function-tracked');
    await dataNav().getByRole('link', { name: 'public', exact: true }).click();
    await page.getByRole('button', { name: 'Untrack search_authors' }).click();
    await page.getByRole('button', { name: 'Yes, untrack' }).click();
    const untracked = page.getByRole('region', { name: 'Untracked custom functions' });
    await expect.poll(() => untracked.getByRole('button', { name: 'Track search_authors' }).isVisible()).toBe(true);
    expect((await exported(s)).sources[0].functions).toBeUndefined();
    await s.browser.shot('schema-function-untracked');
    await untracked.getByRole('button', { name: 'Track search_authors' }).click();
    await expect.poll(async () => (await exported(s)).sources[0].functions).toEqual([{ function: { schema: 'public', name: 'search_authors' } }]);

    await dataNav().getByRole('link', { name: 'search_authors', exact: true }).click();
    await expect.poll(() => page.locator('pre.code').textContent()).toContain('SELECT * FROM author WHERE name ILIKE q');
    await page.getByLabel('Custom name').fill('findAuthors');
    await page.getByLabel('Root field: function', { exact: true }).fill('authorsNamed');
    await page.getByRole('button', { name: 'Save configuration' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Configuration saved.');
    expect((await exported(s)).sources[0].functions).toEqual([
      { function: { schema: 'public', name: 'search_authors' }, configuration: { custom_name: 'findAuthors', custom_root_fields: { function: 'authorsNamed' } } },
    ]);
    await s.browser.shot('function-page');
  });

  it('adds a relationship by hand and a remote relationship to a source, then removes them', async () => {
    const { page } = s;
    await dataNav().getByRole('link', { name: 'article', exact: true }).click();
    await page.getByRole('navigation', { name: 'Table' }).getByRole('link', { name: 'Relationships' }).click();
    const manual = page.getByRole('form', { name: 'Add a relationship manually' });
    await manual.getByLabel('Relationship name').fill('writer');
    await manual.getByLabel('Remote table').selectOption('public.author');
    await manual.getByLabel('From column 1').selectOption('author_id');
    await expect.poll(() => manual.getByLabel('To column 1').locator('option').allTextContents()).toContain('id');
    await manual.getByLabel('To column 1').selectOption('id');
    await manual.getByRole('button', { name: 'Create relationship' }).click();
    await expect.poll(async () => (await tableEntry('article')).object_relationships[1]).toEqual({
      name: 'writer',
      using: { manual_configuration: { remote_table: { schema: 'public', name: 'author' }, column_mapping: { author_id: 'id' } } },
    });

    const remote = page.getByRole('form', { name: 'Add a remote relationship' });
    await remote.getByLabel('Remote relationship name').fill('remote_author');
    await remote.getByLabel('Target table').selectOption('public.author');
    await remote.getByLabel('From column 1').selectOption('author_id');
    await expect.poll(() => remote.getByLabel('To column 1').locator('option').allTextContents()).toContain('id');
    await remote.getByLabel('To column 1').selectOption('id');
    await remote.getByRole('button', { name: 'Add remote relationship' }).click();
    await expect.poll(async () => (await tableEntry('article')).remote_relationships).toEqual([
      { name: 'remote_author', definition: { to_source: { source: 'default', table: { schema: 'public', name: 'author' }, relationship_type: 'object', field_mapping: { author_id: 'id' } } } },
    ]);
    await s.browser.shot('relationships-manual-and-remote');

    await page.getByRole('button', { name: 'Remove writer' }).click();
    await page.getByRole('button', { name: 'Yes, remove' }).click();
    await expect.poll(() => page.getByRole('table', { name: 'Relationships' }).getByRole('row').filter({ hasText: 'writer' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Remove remote_author' }).click();
    await page.getByRole('button', { name: 'Yes, remove' }).click();
    await expect.poll(async () => (await tableEntry('article')).remote_relationships).toBeUndefined();
    expect((await tableEntry('article')).object_relationships.map((r: any) => r.name)).toEqual(['author']);
  });

  it('adds a remote relationship to a remote schema', async () => {
    const { page } = s;
    const remote = await new RemoteGraphQL('type Query { writer(id: Int!): Writer } type Writer { id: Int! bio: String }', { writer: ({ id }: { id: number }) => ({ id, bio: `bio ${id}` }) }).start();
    try {
      expect((await s.engine.metadata({ type: 'add_remote_schema', args: { name: 'profiles', definition: { url: remote.url } } }, ADMIN)).status).toBe(200);
      // The console reads the metadata again when it opens.
      await page.reload();
      const form = page.getByRole('form', { name: 'Add a remote relationship' });
      await form.getByLabel('Remote relationship to').selectOption('remote-schema');
      await form.getByLabel('Remote relationship name').fill('profile');
      await form.getByLabel('Remote schema').selectOption('profiles');
      await form.getByLabel('Columns passed (comma-separated)').fill('author_id');
      await form.getByLabel('Remote field (JSON)').fill('{"writer": {"arguments": {"id": "$author_id"}}}');
      await form.getByRole('button', { name: 'Add remote relationship' }).click();
      await expect.poll(async () => (await tableEntry('article')).remote_relationships).toEqual([
        { name: 'profile', definition: { to_remote_schema: { remote_schema: 'profiles', lhs_fields: ['author_id'], remote_field: { writer: { arguments: { id: '$author_id' } } } } } },
      ]);
      await expect.poll(() => page.getByRole('region', { name: 'Remote relationships' }).textContent()).toContain('remote schema profiles');
      await s.browser.shot('relationships-remote-schema');
      await page.getByRole('button', { name: 'Remove profile' }).click();
      await page.getByRole('button', { name: 'Yes, remove' }).click();
      await expect.poll(async () => (await tableEntry('article')).remote_relationships).toBeUndefined();
      expect((await s.engine.metadata({ type: 'remove_remote_schema', args: { name: 'profiles' } }, ADMIN)).status).toBe(200);
    } finally {
      await remote.stop();
    }
  });

  it('adds and removes a computed field', async () => {
    const { page } = s;
    await s.db.sql('CREATE FUNCTION author_upper_name(a author) RETURNS text AS $$ SELECT upper(a.name) $$ LANGUAGE sql STABLE');
    await dataNav().getByRole('link', { name: 'author', exact: true }).click();
    await page.getByRole('navigation', { name: 'Table' }).getByRole('link', { name: 'Modify' }).click();
    await page.getByLabel('Computed field name').fill('upper_name');
    await page.getByLabel('Function name').fill('author_upper_name');
    await page.getByRole('button', { name: 'Add computed field' }).click();
    await expect.poll(async () => (await tableEntry('author')).computed_fields).toEqual([{ name: 'upper_name', definition: { function: { schema: 'public', name: 'author_upper_name' } } }]);
    await s.browser.shot('modify-computed-field');
    await page.getByRole('button', { name: 'Remove upper_name' }).click();
    await page.getByRole('button', { name: 'Yes, remove' }).click();
    await expect.poll(async () => (await tableEntry('author')).computed_fields).toBeUndefined();
  });

  it('names a suggestion whose name is taken after its columns, and tracks them all from the schema page', async () => {
    const { page } = s;
    await s.db.sql('ALTER TABLE article ADD COLUMN editor_id int REFERENCES author (id)');
    await dataNav().getByRole('link', { name: 'public', exact: true }).click();
    const suggested = page.getByRole('region', { name: 'Untracked foreign-key relationships' });
    // `author` is taken on article: the well-known console falls back to <name>By<Columns>;
    // `articles` is free on author (that one was renamed `writings`).
    await expect.poll(() => suggested.getByRole('button').allTextContents()).toEqual(['Track all relationships', 'Track', 'Track']);
    expect(await suggested.getByRole('button', { name: 'Track article.authorByEditorId' }).isVisible()).toBe(true);
    expect(await suggested.getByRole('button', { name: 'Track author.articles' }).isVisible()).toBe(true);
    await s.browser.shot('schema-suggested-relationships');
    await suggested.getByRole('button', { name: 'Track all relationships' }).click();
    await expect.poll(() => suggested.textContent()).toContain('There are no untracked relationships.');
    expect((await tableEntry('article')).object_relationships.map((r: any) => r.name)).toEqual(['author', 'authorByEditorId']);
    expect((await tableEntry('author')).array_relationships).toEqual(expect.arrayContaining([
      { name: 'writings', using: { foreign_key_constraint_on: { table: { schema: 'public', name: 'article' }, column: 'author_id' } }, comment: 'what they wrote' },
      { name: 'articles', using: { foreign_key_constraint_on: { table: { schema: 'public', name: 'article' }, column: 'editor_id' } } },
    ]));
  });

  it('adds a column and removes it', async () => {
    const { page } = s;
    await dataNav().getByRole('link', { name: 'article', exact: true }).click();
    await page.getByRole('navigation', { name: 'Table' }).getByRole('link', { name: 'Modify' }).click();
    const form = page.getByRole('form', { name: 'Add a new column' });
    await form.getByLabel('Column name').fill('published_on');
    await form.getByLabel('Column type').fill('date');
    await form.getByLabel('Default value (SQL)').fill('current_date');
    await form.getByLabel('Nullable').uncheck();
    await form.getByRole('button', { name: 'Add column' }).click();
    const columns = page.getByRole('table', { name: 'Columns' });
    await expect.poll(() => columns.getByRole('row').filter({ hasText: 'published_on' }).textContent()).toContain('dateno');
    expect((await s.db.sql("SELECT is_nullable, column_default FROM information_schema.columns WHERE table_name = 'article' AND column_name = 'published_on'")).rows).toEqual([{ is_nullable: 'NO', column_default: 'CURRENT_DATE' }]);
    await s.browser.shot('modify-column-added');
    await page.getByRole('button', { name: 'Rename column published_on' }).click();
    await page.getByLabel('New name of column published_on').fill('released_on');
    await page.getByRole('button', { name: 'Save column name' }).click();
    await expect.poll(() => columns.getByRole('row').filter({ hasText: 'released_on' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Remove column released_on' }).click();
    await page.getByRole('button', { name: 'Yes, remove column' }).click();
    await expect.poll(() => columns.getByRole('row').filter({ hasText: 'released_on' }).count()).toBe(0);
    expect((await s.db.sql("SELECT count(*)::int AS n FROM information_schema.columns WHERE table_name = 'article' AND column_name IN ('published_on', 'released_on')")).rows).toEqual([{ n: 0 }]);
  });

  it('creates a table with the "Add a new table" form, tracked', async () => {
    const { page } = s;
    await dataNav().getByRole('link', { name: 'public', exact: true }).click();
    await page.getByRole('link', { name: 'Create Table' }).click();
    await page.getByLabel('Table name', { exact: true }).fill('tag');
    const second = page.getByRole('group', { name: 'Column 2' });
    await second.getByLabel('Name').fill('label');
    await second.getByLabel('Type').fill('text');
    await second.getByLabel('Nullable').uncheck();
    await second.getByLabel('Unique').check();
    await page.getByRole('button', { name: 'Add a column' }).click();
    const third = page.getByRole('group', { name: 'Column 3' });
    await third.getByLabel('Name').fill('article_id');
    await third.getByLabel('Type').fill('integer');
    await page.getByLabel('Comment').fill("a post's tag");
    await s.browser.shot('create-table');
    await page.getByRole('button', { name: 'Add Table' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('public.tag');
    expect(await tableEntry('tag')).toEqual({ table: { schema: 'public', name: 'tag' } });
    expect((await s.db.sql("SELECT obj_description('public.tag'::regclass) AS comment, (SELECT array_agg(contype::text ORDER BY contype) FROM pg_constraint WHERE conrelid = 'public.tag'::regclass) AS kinds")).rows).toEqual([
      { comment: "a post's tag", kinds: ['p', 'u'] },
    ]);
    await s.browser.shot('create-table-done');
  });

  it('adds a foreign key and removes it', async () => {
    const { page } = s;
    const form = page.getByRole('form', { name: 'Add a foreign key' });
    await form.getByLabel('Reference table').selectOption('public.article');
    await form.getByLabel('From column 1').selectOption('article_id');
    await expect.poll(() => form.getByLabel('To column 1').locator('option').allTextContents()).toContain('id');
    await form.getByLabel('To column 1').selectOption('id');
    await form.getByLabel('On delete').selectOption('cascade');
    await form.getByRole('button', { name: 'Add foreign key' }).click();
    const keys = page.getByRole('region', { name: 'Foreign keys' });
    await expect.poll(() => keys.getByRole('listitem').textContent()).toContain('tag_article_id_fkey: (article_id) → article (id)');
    expect((await s.db.sql("SELECT confdeltype FROM pg_constraint WHERE conname = 'tag_article_id_fkey'")).rows).toEqual([{ confdeltype: 'c' }]);
    await s.browser.shot('modify-foreign-key');
    await keys.getByRole('button', { name: 'Remove tag_article_id_fkey' }).click();
    await keys.getByRole('button', { name: 'Yes, remove foreign key' }).click();
    await expect.poll(() => keys.getByRole('listitem').count()).toBe(0);
    expect((await s.db.sql("SELECT count(*)::int AS n FROM pg_constraint WHERE conname = 'tag_article_id_fkey'")).rows).toEqual([{ n: 0 }]);
  });

  it('untracks a table, tracks it again with "Track all", renames it and deletes it', async () => {
    const { page } = s;
    await dataNav().getByRole('link', { name: 'article_status', exact: true }).click();
    await page.getByRole('navigation', { name: 'Table' }).getByRole('link', { name: 'Modify' }).click();
    await page.getByRole('button', { name: 'Untrack table' }).click();
    await page.getByRole('button', { name: 'Yes, untrack table' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Schema public');
    expect(await tableEntry('article_status')).toBeUndefined();
    const untracked = page.getByRole('region', { name: 'Untracked tables or views' });
    await expect.poll(() => untracked.getByRole('button', { name: 'Track article_status' }).isVisible()).toBe(true);
    await s.browser.shot('schema-untracked');
    await untracked.getByRole('button', { name: 'Track all tables' }).click();
    await expect.poll(() => dataNav().getByRole('link', { name: 'article_status', exact: true }).isVisible()).toBe(true);

    await dataNav().getByRole('link', { name: 'article_status', exact: true }).click();
    await page.getByRole('navigation', { name: 'Table' }).getByRole('link', { name: 'Modify' }).click();
    await page.getByLabel('Table name', { exact: true }).fill('status_kind');
    await page.getByRole('button', { name: 'Rename table' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('public.status_kind');
    expect(await tableEntry('status_kind')).toEqual({ table: { schema: 'public', name: 'status_kind' } });
    expect(await dataNav().getByRole('link', { name: 'status_kind', exact: true }).isVisible()).toBe(true);
    await s.browser.shot('modify-table-renamed');
    await page.getByRole('button', { name: 'Delete table' }).click();
    await page.getByRole('button', { name: 'Yes, delete table' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Schema public');
    expect(await tableEntry('status_kind')).toBeUndefined();
    expect((await s.db.sql("SELECT to_regclass('public.status_kind') AS t")).rows).toEqual([{ t: null }]);
    await s.browser.shot('table-deleted');
  });
});
