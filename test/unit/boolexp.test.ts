import { describe, expect, it } from 'vitest';
import type { CatalogColumn, CatalogFunction, CatalogType, QualifiedName } from '../../src/catalog/types.js';
import { TRUE } from '../../src/ir/boolexp.js';
import { parseBoolExp, type BoolExpScope, type BoolExpTable } from '../../src/metadata/boolexp.js';
import { ApiError } from '../../src/errors/admin.js';
import { pgType } from '../support/pg-types.js';

const type = (name: string, element: QualifiedName | null = null): CatalogType => pgType(name, name === 'int4' ? 'integer' : name, { element });
const INT = type('int4');
const TEXT = type('text');

let position = 0;
const column = (name: string, t: CatalogType): CatalogColumn => ({ name, position: ++position, type: t, nullable: true, default: null, isIdentity: false, isGenerated: false, comment: null });

function table(name: string, columns: CatalogColumn[], extra: Partial<BoolExpTable> = {}): BoolExpTable {
  return { name: { schema: 'public', name }, columns: new Map(columns.map((c) => [c.name, c])), relationships: new Map(), computedFields: new Map(), ...extra };
}

const fn = (name: string, returnType: CatalogType): CatalogFunction => ({ schema: 'public', name, oid: 0, comment: null, volatility: 'stable', returnsSet: false, returnType, args: [], language: 'sql', isAggregate: false, hasVariadic: false });

const author = table('author', [column('id', INT), column('name', TEXT), column('rating', INT)], {
  computedFields: new Map([
    ['full_name', { returns: { kind: 'scalar', type: TEXT }, inputArguments: [], function: fn('author_full_name', TEXT), tableArgument: 0, sessionArgument: null }],
    ['search', { returns: { kind: 'scalar', type: TEXT }, inputArguments: [{ name: 'q', type: TEXT, hasDefault: false }], function: fn('author_search', TEXT), tableArgument: 0, sessionArgument: null }],
  ]),
});
const article = table(
  'article',
  [column('id', INT), column('title', TEXT), column('author_id', INT), column('meta', type('jsonb')), column('raw', type('json')), column('tags', type('_text', { schema: 'pg_catalog', name: 'text' }))],
  { relationships: new Map([['author', { target: { schema: 'public', name: 'author' }, mapping: [['author_id', 'id']] as [string, string][] }]]) },
);
// The base types of a PostgreSQL database an operator's type error lists (a few of them).
const baseTypes = ['bool', 'bpchar', 'int4', 'jsonb', 'name', 'text', 'varchar'].map((n) => type(n));
const scope: BoolExpScope = { source: 'default', table: (q) => [author, article].find((t) => t.name.name === q.name && q.schema === 'public'), baseTypes };

const parse = (v: unknown, t = article) => parseBoolExp(v, t, scope, '$.filter');

function failure(v: unknown, t = article): { path: string; error: string; code: string } {
  try {
    parse(v, t);
  } catch (e) {
    if (e instanceof ApiError) return e.body() as { path: string; error: string; code: string };
    throw e;
  }
  throw new Error('expected a failure');
}

describe('structure', () => {
  it('reads an empty expression as true', () => {
    expect(parse({})).toEqual(TRUE);
  });

  it('reads several keys as their conjunction, and a single key as itself', () => {
    expect(parse({ id: 1, title: 'x' })).toEqual({
      kind: 'and',
      items: [
        { kind: 'column', column: 'id', type: INT, ops: [{ op: '_eq', value: { kind: 'literal', value: 1 } }] },
        { kind: 'column', column: 'title', type: TEXT, ops: [{ op: '_eq', value: { kind: 'literal', value: 'x' } }] },
      ],
    });
  });

  it('reads _and, _or, _not and their $ aliases', () => {
    const id1 = { kind: 'column', column: 'id', type: INT, ops: [{ op: '_eq', value: { kind: 'literal', value: 1 } }] };
    expect(parse({ _and: [{ id: 1 }] })).toEqual({ kind: 'and', items: [id1] });
    expect(parse({ $or: [{ id: 1 }, {}] })).toEqual({ kind: 'or', items: [id1, TRUE] });
    expect(parse({ _not: { id: 1 } })).toEqual({ kind: 'not', item: id1 });
    expect(parse({ $not: { id: 1 } })).toEqual({ kind: 'not', item: id1 });
  });

  it('follows a relationship to its target table', () => {
    expect(parse({ author: { name: { _eq: 'Ann' } } })).toEqual({
      kind: 'relationship',
      relationship: 'author',
      join: { target: { schema: 'public', name: 'author' }, mapping: [['author_id', 'id']] },
      where: { kind: 'column', column: 'name', type: TEXT, ops: [{ op: '_eq', value: { kind: 'literal', value: 'Ann' } }] },
    });
  });

  it('reads _exists over another tracked table', () => {
    expect(parse({ _exists: { _table: 'author', _where: { id: { _eq: 'X-Service-User-Id' } } } })).toEqual({
      kind: 'exists',
      table: { schema: 'public', name: 'author' },
      where: { kind: 'column', column: 'id', type: INT, ops: [{ op: '_eq', value: { kind: 'session', name: 'x-service-user-id' } }] },
    });
  });

  it('compares a scalar computed field like a column', () => {
    expect(parse({ full_name: { _ilike: '%a%' } }, author)).toEqual({ kind: 'computed', field: 'full_name', call: { fn: { schema: 'public', name: 'author_full_name' }, returnType: TEXT, tableArgument: null, sessionArgument: null }, ops: [{ op: '_ilike', value: { kind: 'literal', value: '%a%' } }] });
  });
});

describe('operators', () => {
  it('normalises _ne and $neq to _neq and takes $-prefixed aliases', () => {
    expect(parse({ id: { _ne: 1, $neq: 2, $gt: 0 } })).toEqual({
      kind: 'column',
      column: 'id',
      type: INT,
      ops: [
        { op: '_neq', value: { kind: 'literal', value: 1 } },
        { op: '_neq', value: { kind: 'literal', value: 2 } },
        { op: '_gt', value: { kind: 'literal', value: 0 } },
      ],
    });
  });

  it('takes session variables in any case, lower-cased', () => {
    expect(parse({ author_id: 'X-SERVICE-USER-ID' })).toEqual({ kind: 'column', column: 'author_id', type: INT, ops: [{ op: '_eq', value: { kind: 'session', name: 'x-service-user-id' } }] });
  });

  it('reads lists for _in and _nin, or a session variable holding one', () => {
    expect(parse({ id: { _in: [1, 2], _nin: 'x-service-ids' } })).toEqual({
      kind: 'column',
      column: 'id',
      type: INT,
      ops: [
        { op: '_in', value: { kind: 'literal', value: [1, 2] } },
        { op: '_nin', value: { kind: 'session', name: 'x-service-ids' } },
      ],
    });
  });

  it('reads the text, null, jsonb and array operator families', () => {
    for (const op of ['_like', '_nlike', '_ilike', '_nilike', '_similar', '_nsimilar', '_regex', '_iregex', '_nregex', '_niregex']) {
      expect(parse({ title: { [op]: 'a%' } })).toMatchObject({ ops: [{ op }] });
    }
    expect(parse({ title: { _is_null: true } })).toMatchObject({ ops: [{ op: '_is_null', value: { kind: 'literal', value: true } }] });
    expect(parse({ meta: { _contains: { a: 1 }, _contained_in: { a: 1, b: 2 }, _has_key: 'a', _has_keys_any: ['a'], _has_keys_all: ['a', 'b'] } })).toMatchObject({
      ops: [{ op: '_contains' }, { op: '_contained_in' }, { op: '_has_key' }, { op: '_has_keys_any' }, { op: '_has_keys_all' }],
    });
    expect(parse({ tags: { _contains: ['x'] } })).toMatchObject({ ops: [{ op: '_contains', value: { kind: 'literal', value: ['x'] } }] });
  });

  it('reads column comparisons against the current or the root table', () => {
    expect(parse({ author: { id: { _ceq: ['$', 'author_id'], _cne: 'rating', _cgt: ['rating'] } } })).toEqual({
      kind: 'relationship',
      relationship: 'author',
      join: { target: { schema: 'public', name: 'author' }, mapping: [['author_id', 'id']] },
      where: {
        kind: 'column',
        column: 'id',
        type: INT,
        ops: [
          { op: '_ceq', value: { kind: 'column', column: 'author_id', root: true } },
          { op: '_cne', value: { kind: 'column', column: 'rating', root: false } },
          { op: '_cgt', value: { kind: 'column', column: 'rating', root: false } },
        ],
      },
    });
  });
});

describe('errors carry the JSON path', () => {
  it('names an unknown column or relationship', () => {
    expect(failure({ author: { nope: 1 } })).toEqual({ path: '$.filter.author.nope', error: '"nope" does not exist', code: 'not-exists' });
  });

  it('names an unknown operator', () => {
    expect(failure({ $or: [{ id: { _near: 1 } }] })).toEqual({ path: '$.filter["$or"][0].id._near', error: 'Unknown operator: _near', code: 'unexpected-payload' });
  });

  it('refuses a value of the wrong type for the column', () => {
    expect(failure({ id: true })).toEqual({ path: '$.filter.id', error: 'parsing Int32 failed, expected Number, but encountered Boolean', code: 'parse-failed' });
    expect(failure({ id: { _in: [1, 1.5] } })).toMatchObject({ path: '$.filter.id._in[1]', code: 'parse-failed' });
    expect(failure({ title: { _eq: 3 } })).toMatchObject({ path: '$.filter.title._eq', error: 'parsing Text failed, expected String, but encountered Number' });
    expect(failure({ id: { _in: 1 } })).toMatchObject({ path: '$.filter.id._in', error: 'parsing [] failed, expected Array, but encountered Number' });
    expect(failure({ id: { _is_null: 'yes' } })).toMatchObject({ path: '$.filter.id._is_null', code: 'parse-failed' });
  });

  it('refuses an operator on a column type it does not apply to', () => {
    expect(failure({ id: { _like: '1%' } })).toEqual({
      path: '$.filter.id._like',
      // The database's text types, as its base types list them.
      error: '"id" is of type "integer"; this operator works only on columns of type "bpchar", "name", "text", "varchar"',
      code: 'unexpected-payload',
    });
    expect(failure({ title: { _has_key: 'a' } })).toEqual({ path: '$.filter.title._has_key', error: '"title" is of type "text"; this operator works only on columns of type "jsonb"', code: 'unexpected-payload' });
    expect(failure({ title: { _contains: 'a' } })).toMatchObject({ error: '"title" is of type "text"; this operator works only on columns of type an array or "jsonb"' });
    // A family the database has no type of is named as the family.
    expect(failure({ title: { _ancestor: 'a' } })).toMatchObject({ error: '"title" is of type "text"; this operator works only on columns of type "label-tree"' });
  });

  it('checks column comparisons', () => {
    expect(failure({ id: { _ceq: 'nope' } })).toMatchObject({ path: '$.filter.id._ceq', error: 'column "nope" does not exist' });
    expect(failure({ id: { _ceq: 'title' } })).toMatchObject({ error: 'incompatible column types: "id" has type "integer", but "title" has type "text"' });
    expect(failure({ id: { _ceq: ['author', 'id'] } })).toMatchObject({ code: 'not-supported' });
    expect(failure({ id: { _ceq: [] } })).toMatchObject({ error: 'path cannot be empty' });
  });

  it('refuses _exists over a table that is not tracked', () => {
    expect(failure({ _exists: { _table: 'nope', _where: {} } })).toEqual({ path: '$.filter._exists._table', error: 'table "nope" does not exist in source: default', code: 'not-exists' });
  });

  it('refuses json columns, computed fields with arguments and non-objects', () => {
    expect(failure({ raw: { _eq: 1 } })).toMatchObject({ error: 'JSON column can not be part of boolean expression' });
    expect(failure({ search: { _eq: 'x' } }, author)).toMatchObject({ error: 'Computed columns with input arguments can not be part of the where clause' });
    expect(failure([])).toEqual({ path: '$.filter', error: 'expecting an Object for boolean exp', code: 'parse-failed' });
    expect(failure({ _and: {} })).toMatchObject({ path: '$.filter._and', error: 'parsing [] failed, expected Array, but encountered Object' });
  });
});

describe('expressions parsed for several permissions of a table', () => {
  it('share the IR of a condition written the same, and only on the table it applies to', () => {
    const parsed = new Map();
    const own = { author_id: { _eq: 'X-Service-User-Id' } };
    const first = parseBoolExp({ _or: [own, { title: { _eq: 'a' } }] }, article, scope, '$.filter', parsed) as { items: unknown[] };
    const second = parseBoolExp({ ...own, id: { _gt: 1 } }, article, scope, '$.check', parsed) as { items: unknown[] };
    expect(second.items[0]).toBe(first.items[0]);
    // `{id: {_gt: 1}}` on the author (a relationship's target) is another column of another table.
    const nested = parseBoolExp({ author: { id: { _gt: 1 } } }, article, scope, '$.filter', parsed) as { where: unknown };
    expect(nested.where).not.toBe(second.items[1]);
    expect(nested.where).toEqual({ ...(second.items[1] as object), type: INT });
    // One condition object (roles given equal ones share it) is parsed once, nested ones too.
    const shared = { _or: [own, { title: { _eq: 'b' } }] };
    const again = parseBoolExp(shared, article, scope, '$.check', parsed);
    expect(parseBoolExp(shared, article, scope, '$.filter', parsed)).toBe(again);
    expect((parseBoolExp({ _not: shared }, article, scope, '$.filter', parsed) as { item: unknown }).item).toBe(again);
    // Without the memo each expression has its own.
    expect(parse({ _or: [own] })).not.toBe(parse({ _or: [own] }));
  });
});
