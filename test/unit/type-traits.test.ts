/**
 * Types in the neutral vocabulary: each backend names its own types and fills their traits, and
 * no module outside a backend's folder decides by a PostgreSQL type name (the metadata
 * database's own statements aside: it is PostgreSQL, as the well-known engine's is).
 */
import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogType as bigqueryType } from '../../src/backends/bigquery/introspect.js';
import { catalogType as mssqlType } from '../../src/backends/mssql/introspect.js';
import { sourceFiles, SRC } from '../support/source-imports.js';
import { pgType } from '../support/pg-types.js';

const traits = (t: { traits: object }) => t.traits;

describe('PostgreSQL types', () => {
  it('name their GraphQL scalars as the well-known engine does', () => {
    expect(['int2', 'int4', 'int8', 'float8', 'numeric', 'bool', 'text', 'bpchar', 'citext', 'uuid', 'timestamptz', 'jsonb', '_int4'].map((n) => pgType(n).traits.scalar)).toEqual([
      'Int', 'Int', 'bigint', 'Float', 'numeric', 'Boolean', 'String', 'String', 'String', 'uuid', 'timestamptz', 'jsonb', '_int4',
    ]);
    expect(pgType('address', 'address', { schema: 'public', kind: 'c', category: 'C' }).traits.scalar).toBe('address_scalar');
    expect(pgType('address', 'address', { schema: 'public', kind: 'c', category: 'C' }).kind).toBe('composite');
  });

  it('give each its operator family and aggregates', () => {
    expect(traits(pgType('int4'))).toEqual({ scalar: 'Int', family: 'numeric', summable: true, comparable: true, wide: false, literal: { json: 'integer', decoder: 'Int32' } });
    expect(traits(pgType('numeric'))).toMatchObject({ family: 'numeric', summable: true, wide: true, literal: { json: 'number', decoder: 'Scientific' } });
    expect(traits(pgType('money'))).toMatchObject({ family: 'numeric', summable: false, comparable: true });
    expect(traits(pgType('jsonb'))).toMatchObject({ family: 'binary-json', comparable: false });
    expect(traits(pgType('json'))).toMatchObject({ family: 'json', comparable: false });
    expect(traits(pgType('ltree'))).toMatchObject({ family: 'label-tree', comparable: true });
    expect(traits(pgType('bool'))).toMatchObject({ family: 'boolean', comparable: false, literal: { json: 'boolean', decoder: 'Bool' } });
    expect(traits(pgType('timestamptz', 'timestamp with time zone', { category: 'D' }))).toMatchObject({ family: 'other', comparable: true, literal: { json: 'string', decoder: 'UTCTime' } });
    expect(traits(pgType('_int4', 'integer[]', { element: { schema: 'pg_catalog', name: 'int4' } }))).toMatchObject({ comparable: false, summable: false });
    expect(traits(pgType('point', 'point', { category: 'G' }))).toMatchObject({ comparable: false });
  });

  it('hold one object per type and text', () => {
    expect(pgType('int4', 'integer')).toBe(pgType('int4', 'integer'));
  });
});

describe('SQL Server and BigQuery types', () => {
  it('keep their own names, with the scalars and traits of the neutral vocabulary', () => {
    expect([mssqlType('int', 4, 10, 0), mssqlType('nvarchar', -1, 0, 0), mssqlType('datetimeoffset', 10, 34, 7), mssqlType('bit', 1, 1, 0)].map((t) => [t.name, t.display, t.traits.scalar, t.traits.family])).toEqual([
      ['int', 'int', 'Int', 'numeric'],
      ['nvarchar', 'nvarchar(max)', 'String', 'text'],
      ['datetimeoffset', 'datetimeoffset', 'datetimeoffset', 'other'],
      ['bit', 'bit', 'Boolean', 'boolean'],
    ]);
    expect([bigqueryType('INT64'), bigqueryType('STRING(2)'), bigqueryType('TIMESTAMP'), bigqueryType('DATETIME'), bigqueryType('GEOGRAPHY')].map((t) => [t.name, t.display, t.traits.scalar])).toEqual([
      ['INT64', 'INT64', 'bigint'],
      ['STRING', 'STRING(2)', 'String'],
      ['TIMESTAMP', 'TIMESTAMP', 'timestamp'],
      ['DATETIME', 'DATETIME', 'datetime'],
      ['GEOGRAPHY', 'GEOGRAPHY', 'bigquery_geography'],
    ]);
  });
});

describe('the neutral layers', () => {
  it('name no PostgreSQL type outside src/backends/pg/ and the metadata database (src/db/)', () => {
    const allowed = [join(SRC, 'backends', 'pg') + sep, join(SRC, 'db') + sep];
    const offending = sourceFiles()
      .filter((f) => !allowed.some((a) => f.startsWith(a)))
      .flatMap((f) =>
        readFileSync(f, 'utf8')
          .split('\n')
          .map((line, i) => [line, i] as const)
          .filter(([line]) => /\b(timestamptz|float8|jsonb|bpchar|typcategory|typname)\b/.test(line))
          .map(([, i]) => `${relative(SRC, f)}:${i + 1}`),
      );
    expect(offending).toEqual([]);
  });
});
