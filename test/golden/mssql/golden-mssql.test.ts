/**
 * SQL Server golden cases (`../dialect-golden.ts`): the catalog is what `mssqlCatalog` maps
 * `fixture/catalog-rows.json` to (rows as SQL Server's catalog queries return them), and every
 * statement must parse as T-SQL (node-sql-parser's TransactSQL dialect).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GraphQLEnumType, GraphQLInputObjectType, GraphQLObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { mssqlCatalog, type MssqlCatalogRows } from '../../../src/backends/mssql/introspect.js';
import { dialectGoldenCases, goldenSchemas, readJson } from '../dialect-golden.js';

const ROOT = fileURLToPath(new URL('.', import.meta.url));
const catalog = mssqlCatalog(readJson(join(ROOT, 'fixture/catalog-rows.json')) as MssqlCatalogRows);

describe('SQL Server golden cases', () => {
  it('maps the catalog rows', () => {
    expect(catalog.tables.map((t) => `${t.schema}.${t.name}`)).toEqual(['dbo.article', 'dbo.author', 'dbo.author_names', 'sales.order']);
  });
  dialectGoldenCases(ROOT, 'mssql', catalog, 'TransactSQL');
});

/** The GraphQL schema of an mssql source as its capabilities and the roles' permissions make it. */
describe('SQL Server schema', () => {
  const schemas = goldenSchemas(ROOT, catalog);
  const schema = (role: string) => schemas.get(role, false).schema;
  const args = (role: string, root: 'mutation' | 'subscription', field: string) => {
    const type = root === 'mutation' ? schema(role).getMutationType() : schema(role).getSubscriptionType();
    return type?.getFields()[field]?.args.map((a) => a.name);
  };
  const inputFields = (role: string, name: string) => Object.keys((schema(role).getType(name) as GraphQLInputObjectType).getFields());

  it('has insert, update and delete root fields for admin, upserts by if_matched, no on_conflict or nested inserts', () => {
    const fields = Object.keys(schema('admin').getMutationType()!.getFields());
    for (const f of ['insert_author', 'insert_author_one', 'update_author', 'update_author_by_pk', 'update_author_many', 'delete_author', 'delete_author_by_pk', 'insert_sales_order', 'delete_sales_order_by_pk']) expect(fields).toContain(f);
    expect(args('admin', 'mutation', 'insert_author')).toEqual(['objects', 'if_matched']);
    expect(args('admin', 'mutation', 'insert_author_one')).toEqual(['object', 'if_matched']);
    expect(inputFields('admin', 'author_if_matched')).toEqual(['match_columns', 'update_columns', 'where']);
    // nvarchar(max) compares; only text, ntext and image cannot be match columns.
    expect((schema('admin').getType('article_insert_match_column') as GraphQLEnumType).getValues().map((v) => v.name)).toEqual(['id', 'title', 'author_id', 'views', 'published_at']);
    // IDENTITY (and computed) columns take no value, as upstream.
    expect(inputFields('admin', 'author_insert_input')).toEqual(['name', 'rating', 'active']);
    expect(inputFields('admin', 'author_set_input')).toEqual(['name', 'rating', 'active']);
    expect(args('admin', 'mutation', 'update_author')).toEqual(['_set', '_inc', 'where']);
    expect(schema('admin').getType('author_on_conflict')).toBeUndefined();
  });

  it("follows a role's insert, update and delete permissions (columns, presets left out of the inputs)", () => {
    const fields = Object.keys(schema('user').getMutationType()!.getFields()).sort();
    expect(fields).toEqual(['delete_article', 'delete_article_by_pk', 'insert_article', 'insert_article_one', 'insert_author', 'insert_author_one', 'update_article', 'update_article_by_pk', 'update_article_many', 'update_author', 'update_author_by_pk', 'update_author_many']);
    expect(inputFields('user', 'article_insert_input')).toEqual(['title', 'views']);
    expect(inputFields('user', 'author_set_input')).toEqual(['name', 'rating']);
    expect(inputFields('user', 'article_inc_input')).toEqual(['views']);
    // if_matched matches on the columns the role may select.
    expect((schema('user').getType('article_insert_match_column') as GraphQLEnumType).getValues().map((v) => v.name)).toEqual(['id', 'title']);
    expect(args('user', 'mutation', 'insert_article')).toEqual(['objects', 'if_matched']);
  });

  it('has live queries but no streaming subscriptions', () => {
    const fields = Object.keys(schema('admin').getSubscriptionType()!.getFields());
    expect(fields).toContain('author');
    expect(fields).toContain('author_by_pk');
    expect(fields).toContain('author_aggregate');
    expect(fields).not.toContain('author_stream');
  });

  it('has remote relationships as fields: to tables (to_source) for the roles that may select the target, to a remote schema', () => {
    const field = (role: string, type: string, name: string) => (schema(role).getType(type) as GraphQLObjectType).getFields()[name];
    expect(String(field('admin', 'author', 'orders')?.type)).toBe('[sales_order!]!');
    // The target's backend decides the arguments: no distinct_on on SQL Server.
    expect(field('admin', 'author', 'orders')?.args.map((a) => a.name)).toEqual(['limit', 'offset', 'order_by', 'where']);
    expect(String(field('reader', 'article', 'writer')?.type)).toBe('author');
    // user may not select sales.order.
    expect(field('user', 'author', 'orders')).toBeUndefined();
    // To a remote schema (fixture/remote-schemas/reviews.graphql): the last field's type and its arguments the relationship does not set.
    expect(String(field('admin', 'author', 'reviews')?.type)).toBe('[Review!]');
    expect(field('admin', 'author', 'reviews')?.args.map((a) => a.name)).toEqual(['first']);
  });
});
