import { beforeAll, describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';
import { gql, replaceTables } from '../support/graphql.js';

const fx = useEngine();
const q = (query: string, variables?: Record<string, unknown>, headers?: Record<string, string>) => gql(fx.engine, query, variables, headers);

beforeAll(async () => {
  await fx.db.sql(`
    CREATE TABLE author (id serial PRIMARY KEY, name text NOT NULL, bio text, meta jsonb);
    CREATE TABLE article (id serial PRIMARY KEY, title text NOT NULL, rating int, published boolean NOT NULL DEFAULT false,
      author_id int NOT NULL REFERENCES author(id), tags text[], created_at timestamptz NOT NULL DEFAULT '2020-01-01T00:00:00Z');
    INSERT INTO author (name, bio, meta) VALUES ('Ada', 'math', '{"langs": ["en"], "age": 36}'), ('Bob', NULL, '{"age": 40}'), ('Cy', 'poet', NULL);
    INSERT INTO article (title, rating, published, author_id) VALUES
      ('Alpha', 5, true, 1), ('Beta', 7, false, 1), ('Gamma', 9, true, 2), ('Delta', NULL, true, 2), ('Epsilon', 3, false, 3);
    CREATE FUNCTION author_title_count(a author) RETURNS bigint AS $$ SELECT count(*) FROM article WHERE author_id = a.id $$ LANGUAGE sql STABLE;
  `);
  await replaceTables(fx.engine, [
    {
      table: { schema: 'public', name: 'author' },
      array_relationships: [{ name: 'articles', using: { foreign_key_constraint_on: { table: 'article', columns: ['author_id'] } } }],
      computed_fields: [{ name: 'article_count', definition: { function: { schema: 'public', name: 'author_title_count' } } }],
      select_permissions: [
        { role: 'user', permission: { columns: ['id', 'name'], filter: { id: { _eq: 'X-Service-User-Id' } } } },
        { role: 'public_reader', permission: { columns: ['id', 'name'], filter: {}, limit: 2, allow_aggregations: true } },
        { role: 'bio_reader', permission: { columns: ['id', 'bio'], filter: { bio: { _is_null: false } } } },
      ],
    },
    {
      table: { schema: 'public', name: 'article' },
      object_relationships: [{ name: 'author', using: { foreign_key_constraint_on: 'author_id' } }],
      select_permissions: [
        { role: 'user', permission: { columns: ['id', 'title'], filter: { published: { _eq: true } } } },
        { role: 'public_reader', permission: { columns: '*', filter: { published: { _eq: true } }, query_root_fields: ['select'] } },
      ],
    },
  ], { inherited_roles: [{ role_name: 'combined', role_set: ['public_reader', 'bio_reader'] }] });
});

describe('root fields', () => {
  it('selects rows with where, order_by, limit and offset', async () => {
    const r = await q('{ article(where: {rating: {_gte: 5}}, order_by: {rating: desc}, limit: 2, offset: 1) { id title rating } }');
    expect(r).toEqual({ data: { article: [{ id: 2, title: 'Beta', rating: 7 }, { id: 1, title: 'Alpha', rating: 5 }] } });
  });

  it('selects by primary key, null when absent', async () => {
    expect(await q('query ($id: Int!) { article_by_pk(id: $id) { title } }', { id: 3 })).toEqual({ data: { article_by_pk: { title: 'Gamma' } } });
    expect(await q('query ($id: Int!) { article_by_pk(id: $id) { title } }', { id: 99 })).toEqual({ data: { article_by_pk: null } });
  });

  it('aggregates with every function and nodes', async () => {
    const r = await q(`{ article_aggregate(where: {published: {_eq: true}}, order_by: {id: asc}) {
      aggregate { count countRated: count(columns: [rating]) distinctAuthors: count(columns: [author_id], distinct: true)
        sum { rating } avg { rating } max { rating title } min { rating } stddev { rating } variance { rating } }
      nodes { id } } }`);
    const a = r.data.article_aggregate;
    expect(a.aggregate).toMatchObject({ count: 3, countRated: 2, distinctAuthors: 2, sum: { rating: 14 }, max: { rating: 9, title: 'Gamma' }, min: { rating: 5 } });
    expect(a.aggregate.avg.rating).toBeCloseTo(7);
    expect(a.aggregate.variance.rating).toBeCloseTo(8);
    expect(a.nodes).toEqual([{ id: 1 }, { id: 3 }, { id: 4 }]);
  });

  it('answers several root fields, aliases and __typename', async () => {
    const r = await q('{ __typename a: author(order_by: {id: asc}, limit: 1) { __typename name } b: author_by_pk(id: 2) { name } }');
    expect(r).toEqual({ data: { __typename: 'query_root', a: [{ __typename: 'author', name: 'Ada' }], b: { name: 'Bob' } } });
  });
});

describe('relationships and computed fields', () => {
  it('follows object and array relationships with arguments and aggregates', async () => {
    const r = await q(`{ author(order_by: {id: asc}, limit: 2) { name
      articles(where: {published: {_eq: true}}, order_by: {id: desc}) { title author { name } }
      articles_aggregate { aggregate { count } } article_count } }`);
    expect(r.data.author).toEqual([
      { name: 'Ada', articles: [{ title: 'Alpha', author: { name: 'Ada' } }], articles_aggregate: { aggregate: { count: 2 } }, article_count: 2 },
      { name: 'Bob', articles: [{ title: 'Delta', author: { name: 'Bob' } }, { title: 'Gamma', author: { name: 'Bob' } }], articles_aggregate: { aggregate: { count: 2 } }, article_count: 2 },
    ]);
  });

  it('filters through relationships and orders by them', async () => {
    const r = await q(`{ article(where: {author: {name: {_eq: "Bob"}}}, order_by: [{author: {name: asc}}, {id: asc}]) { id } }`);
    expect(r.data.article).toEqual([{ id: 3 }, { id: 4 }]);
    const byCount = await q('{ author(order_by: [{articles_aggregate: {count: desc}}, {id: asc}]) { id } }');
    expect(byCount.data.author.map((a: any) => a.id)).toEqual([1, 2, 3]);
    const byMax = await q('{ author(order_by: {articles_aggregate: {max: {rating: desc_nulls_last}}}) { id } }');
    expect(byMax.data.author.map((a: any) => a.id)).toEqual([2, 1, 3]);
  });
});

describe('operators', () => {
  const ids = async (where: string, vars?: Record<string, unknown>, decl = '') =>
    (await q(`query ${decl} { article(where: ${where}, order_by: {id: asc}) { id } }`, vars)).data.article.map((a: any) => a.id);

  it('compares with every text and list operator', async () => {
    expect(await ids('{title: {_like: "%lta"}}')).toEqual([4]);
    expect(await ids('{title: {_ilike: "a%"}}')).toEqual([1]);
    expect(await ids('{title: {_nilike: "%a%"}}')).toEqual([5]);
    expect(await ids('{title: {_regex: "^[AB]"}}')).toEqual([1, 2]);
    expect(await ids('{title: {_similar: "(Alpha|Beta)"}}')).toEqual([1, 2]);
    expect(await ids('{id: {_in: [1, 3]}}')).toEqual([1, 3]);
    expect(await ids('{id: {_nin: [1, 3]}}')).toEqual([2, 4, 5]);
    expect(await ids('{rating: {_is_null: true}}')).toEqual([4]);
    expect(await ids('{_or: [{id: {_eq: 1}}, {_not: {rating: {_lt: 9}}}]}')).toEqual([1, 3]);
  });

  it('binds variables, and a null comparison is left out', async () => {
    expect(await ids('{id: {_in: $ids}}', { ids: [2, 5] }, '($ids: [Int!])')).toEqual([2, 5]);
    expect(await ids('{rating: {_gt: $r}}', { r: 6 }, '($r: Int)')).toEqual([2, 3]);
    expect(await ids('{rating: {_gt: $r}}', { r: null }, '($r: Int)')).toEqual([1, 2, 3, 4, 5]);
    expect(await ids('$w', { w: { title: { _eq: 'Beta' } } }, '($w: article_bool_exp)')).toEqual([2]);
  });

  it('compares jsonb', async () => {
    const names = async (where: string) => (await q(`{ author(where: ${where}, order_by: {id: asc}) { name } }`)).data.author.map((a: any) => a.name);
    expect(await names('{meta: {_contains: {age: 40}}}')).toEqual(['Bob']);
    expect(await names('{meta: {_has_key: "langs"}}')).toEqual(['Ada']);
    expect(await names('{meta: {_has_keys_any: ["langs", "age"]}}')).toEqual(['Ada', 'Bob']);
    const path = await q('{ author(where: {id: {_eq: 1}}) { meta(path: "$.langs[0]") } }');
    expect(path.data.author).toEqual([{ meta: 'en' }]);
  });

  it('selects distinct rows', async () => {
    const r = await q('{ article(distinct_on: author_id, order_by: [{author_id: asc}, {id: desc}]) { id } }');
    expect(r.data.article).toEqual([{ id: 2 }, { id: 4 }, { id: 5 }]);
  });
});

describe('permissions', () => {
  it('applies the row filter with a session variable and hides columns', async () => {
    const r = await q('{ author { id name articles { title } } }', undefined, { 'X-Service-Role': 'user', 'X-Service-User-Id': '1' });
    expect(r).toEqual({ data: { author: [{ id: 1, name: 'Ada', articles: [{ title: 'Alpha' }] }] } });
    const hidden = await q('{ author { bio } }', undefined, { 'X-Service-Role': 'user', 'X-Service-User-Id': '1' });
    expect(hidden.errors[0]).toEqual({ message: "field 'bio' not found in type: 'author'", extensions: { path: '$.selectionSet.author.selectionSet.bio', code: 'validation-failed' } });
  });

  it('refuses a request that lacks a session variable the permission needs', async () => {
    const r = await q('{ author { id } }', undefined, { 'X-Service-Role': 'user' });
    expect(r.errors[0]).toEqual({ message: 'missing session variables: "x-service-user-id"', extensions: { path: '$', code: 'not-found' } });
  });

  it('caps rows at the limit and allows aggregations only where granted', async () => {
    const h = { 'X-Service-Role': 'public_reader' };
    expect((await q('{ author { id } }', undefined, h)).data.author).toHaveLength(2);
    // The permission's limit caps nodes, not what the aggregate counts.
    const agg = await q('{ author_aggregate { aggregate { count } nodes { id } } }', undefined, h);
    expect(agg.data.author_aggregate).toEqual({ aggregate: { count: 3 }, nodes: [{ id: 1 }, { id: 2 }] });
    const noAgg = await q('{ article_aggregate { aggregate { count } } }', undefined, h);
    expect(noAgg.errors[0].message).toBe("field 'article_aggregate' not found in type: 'query_root'");
  });

  it('enables only the listed root fields', async () => {
    const r = await q('{ article_by_pk(id: 1) { id } }', undefined, { 'X-Service-Role': 'public_reader' });
    expect(r.errors[0].message).toBe("field 'article_by_pk' not found in type: 'query_root'");
  });

  it('inherited roles: a column of some parents is null where their filters fail', async () => {
    const r = await q('{ author(order_by: {id: asc}) { id name bio } }', undefined, { 'X-Service-Role': 'combined' });
    // public_reader (all rows, limit 2: the largest limit is unlimited) gives name; bio_reader (bio not null) gives bio.
    expect(r.data.author).toEqual([
      { id: 1, name: 'Ada', bio: 'math' },
      { id: 2, name: 'Bob', bio: null },
      { id: 3, name: 'Cy', bio: 'poet' },
    ]);
  });

  it('a role without any permission has an empty schema', async () => {
    const r = await q('{ author { id } }', undefined, { 'X-Service-Role': 'nobody' });
    expect(r.errors[0].extensions.code).toBe('validation-failed');
  });
});

describe('introspection, batching, errors, explain', () => {
  it('introspects the schema of the role', async () => {
    const admin = await q('{ __type(name: "author") { fields { name } } }');
    expect(admin.data.__type.fields.map((f: any) => f.name)).toContain('bio');
    const user = await q('{ __type(name: "author") { fields { name } } }', undefined, { 'X-Service-Role': 'user', 'X-Service-User-Id': '1' });
    expect(user.data.__type.fields.map((f: any) => f.name).sort()).toEqual(['articles', 'id', 'name']);
    const schema = await q('{ __schema { queryType { name } } }');
    expect(schema.data.__schema.queryType.name).toBe('query_root');
  });

  it('answers a batch with an array, one error not failing the others', async () => {
    const r = await fx.engine.post('/v1/graphql', [{ query: '{ nope { id } }' }, { query: '{ author_by_pk(id: 1) { name } }' }]);
    expect(r.body).toEqual([
      { errors: [{ message: "field 'nope' not found in type: 'query_root'", extensions: { path: '$.selectionSet.nope', code: 'validation-failed' } }] },
      { data: { author_by_pk: { name: 'Ada' } } },
    ]);
  });

  it('reports variable, syntax and data errors', async () => {
    const missing = await q('query ($id: Int!) { article_by_pk(id: $id) { id } }', {});
    expect(missing.errors[0].message).toBe('expecting a value for non-nullable variable: "id"');
    const syntax = await q('{ author { ');
    expect(syntax.errors[0].extensions.code).toBe('validation-failed');
    const data = await q('{ author(where: {name: {_like: "\\\\"}}) { id } }');
    expect(data.errors[0].extensions.code).toBe('bad-request');
    const negative = await q('{ author(limit: -1) { id } }');
    expect(negative.errors[0]).toEqual({ message: 'expected a non-negative 32-bit integer for type "Int", but found an integer', extensions: { path: '$.selectionSet.author.args.limit', code: 'validation-failed' } });
  });

  it('reads an offset written as a string of digits as that integer, and nothing else', async () => {
    const r = await q('{ article(offset: "1", limit: 2, order_by: {id: asc}) { id } author(where: {id: {_eq: 1}}) { articles(offset: "1") { id } } }');
    expect(r).toEqual({ data: { article: [{ id: 2 }, { id: 3 }], author: [{ articles: [{ id: 2 }] }] } });
    const negative = await q('{ article(offset: "-1") { id } }');
    expect(negative.errors[0]).toEqual({ message: 'expected a 32-bit integer for type "Int", but found a string', extensions: { path: '$.selectionSet.article.args.offset', code: 'validation-failed' } });
    const limit = await q('{ article(limit: "1") { id } }');
    expect(limit.errors[0].message).toBe('expected a 32-bit integer for type "Int", but found a string');
  });

  it('names the fields and spreads that lead to a fragment spread within itself', async () => {
    const cycle = await q(`query { author { ...a } }
      fragment a on author { id articles { ...b } }
      fragment b on article { title author { ... on author { ...a } } }`);
    expect(cycle).toEqual({
      errors: [{
        message: 'cannot spread fragment "a" within itself via b,a',
        extensions: { path: '$.selectionSet.author.selectionSet.a.selectionSet.articles.selectionSet.b.selectionSet.author.selectionSet', code: 'validation-failed' },
      }],
    });
    // Spread twice without a cycle: answered.
    const twice = await q('query { author(where: {id: {_eq: 1}}) { ...n articles { author { ...n } } } } fragment n on author { name }');
    expect(twice.data.author[0]).toEqual({ name: 'Ada', articles: [{ author: { name: 'Ada' } }, { author: { name: 'Ada' } }] });
  });

  it('explains a query for a role', async () => {
    const r = await fx.engine.post('/v1/graphql/explain', { query: { query: '{ author { id } }' }, user: { 'x-service-role': 'user', 'x-service-user-id': '1' } });
    expect(r.status).toBe(200);
    expect(r.body).toHaveLength(1);
    expect(r.body[0].field).toBe('author');
    expect(r.body[0].sql).toContain('SELECT');
    expect(r.body[0].plan.length).toBeGreaterThan(0);
  });
});
