import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogColumn, CatalogFunction, DatabaseCatalog, CatalogTable, CatalogType } from '../../src/catalog/types.js';
import { introspectPg } from '../../src/backends/pg/introspect.js';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import { pgType } from '../support/pg-types.js';

const FIXTURE = `
  CREATE TYPE public.mood AS ENUM ('sad', 'ok', 'happy');
  ALTER TYPE public.mood ADD VALUE 'meh' BEFORE 'ok';

  -- Column order (region, id) differs from the foreign key's (id, region) below.
  CREATE TABLE public.author (
    region text NOT NULL,
    id int NOT NULL,
    name text NOT NULL DEFAULT 'anon',
    mood public.mood,
    tags text[],
    CONSTRAINT author_pkey PRIMARY KEY (region, id)
  );
  COMMENT ON TABLE public.author IS 'Writers';
  COMMENT ON COLUMN public.author.name IS 'Pen name';
  ALTER TABLE public.author ADD COLUMN dropped int;
  ALTER TABLE public.author DROP COLUMN dropped;

  CREATE TABLE public.article (
    id serial PRIMARY KEY,
    author_id int NOT NULL,
    author_region text NOT NULL,
    title varchar(200) NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT article_title_key UNIQUE (author_id, title),
    CONSTRAINT article_author_fkey FOREIGN KEY (author_id, author_region) REFERENCES public.author (id, region),
    CONSTRAINT article_title_check CHECK (title <> '')
  );

  CREATE SCHEMA other;
  CREATE TABLE other.note (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    body text,
    body_length int GENERATED ALWAYS AS (length(body)) STORED
  );

  CREATE SCHEMA service_catalog;
  CREATE TABLE service_catalog.hidden (id int);
  CREATE FUNCTION service_catalog.hidden_fn() RETURNS int LANGUAGE sql AS 'SELECT 1';

  CREATE VIEW public.article_titles AS SELECT id, title FROM public.article;
  CREATE VIEW public.author_stats AS
    SELECT author_id, count(*) AS articles FROM public.article GROUP BY author_id;
  CREATE MATERIALIZED VIEW public.article_counts AS SELECT count(*) AS n FROM public.article;

  -- A foreign key to a partitioned table: PostgreSQL adds one clone per partition.
  CREATE TABLE public.event (id int, at date, PRIMARY KEY (id, at)) PARTITION BY RANGE (at);
  CREATE TABLE public.event_2024 PARTITION OF public.event FOR VALUES FROM ('2024-01-01') TO ('2025-01-01');
  CREATE TABLE public.event_2025 PARTITION OF public.event FOR VALUES FROM ('2025-01-01') TO ('2026-01-01');
  CREATE TABLE public.attendance (
    event_id int,
    event_at date,
    CONSTRAINT attendance_event_fkey FOREIGN KEY (event_id, event_at) REFERENCES public.event
  );

  CREATE FUNCTION public.author_articles(a public.author) RETURNS SETOF public.article
    LANGUAGE sql STABLE AS $$ SELECT * FROM public.article WHERE author_id = a.id AND author_region = a.region $$;
  CREATE FUNCTION public.add(x int, y int DEFAULT 1, z int DEFAULT 2) RETURNS int
    LANGUAGE sql IMMUTABLE AS $$ SELECT x + y + z $$;
  COMMENT ON FUNCTION public.add(int, int, int) IS 'Adds up';
  CREATE FUNCTION public.label(int) RETURNS text LANGUAGE sql AS $$ SELECT 'number' $$;
  CREATE FUNCTION public.label(t text, OUT len int, OUT upper text, VARIADIC rest text[] DEFAULT '{}')
    LANGUAGE sql AS $$ SELECT length(t), upper(t) $$;
  CREATE AGGREGATE public.total(int) (sfunc = int4pl, stype = int);
`;

const int4 = pgType('int4', 'integer');
const text = pgType('text');

function column(position: number, name: string, type: CatalogType, extra: Partial<CatalogColumn> = {}): CatalogColumn {
  return {
    name,
    position,
    type,
    nullable: true,
    default: null,
    isIdentity: false,
    isGenerated: false,
    comment: null,
    ...extra,
  };
}

function rowType(schema: string, name: string): CatalogType {
  return pgType(name, name, { schema, kind: 'c', category: 'C' });
}

describe('introspectPg', () => {
  let db: TestDatabase;
  let result: DatabaseCatalog;
  const table = (schema: string, name: string): CatalogTable | undefined =>
    result.tables.find((t) => t.schema === schema && t.name === name);
  const functions = (name: string): CatalogFunction[] => result.functions.filter((f) => f.name === name);
  const oidOf = async (relation: string): Promise<number> =>
    Number((await db.sql('SELECT $1::regclass::oid AS oid', [relation])).rows[0].oid);

  beforeAll(async () => {
    db = await freshDatabase();
    await db.sql(FIXTURE);
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      result = await introspectPg(client);
    } finally {
      await client.end();
    }
  });
  afterAll(() => db?.drop());

  it('reports the server version', () => {
    expect(result.serverVersion).toBeGreaterThanOrEqual(130000);
  });

  it('lists relations of user schemas only, sorted', () => {
    expect(result.tables.map((t) => [t.schema, t.name, t.kind])).toEqual([
      ['other', 'note', 'table'],
      ['public', 'article', 'table'],
      ['public', 'article_counts', 'materialized_view'],
      ['public', 'article_titles', 'view'],
      ['public', 'attendance', 'table'],
      ['public', 'author', 'table'],
      ['public', 'author_stats', 'view'],
      ['public', 'event', 'partitioned_table'],
      ['public', 'event_2024', 'table'],
      ['public', 'event_2025', 'table'],
    ]);
  });

  it('describes a table with comments, defaults, an enum and an array', async () => {
    expect(table('public', 'author')).toEqual({
      oid: await oidOf('public.author'),
      schema: 'public',
      name: 'author',
      kind: 'table',
      comment: 'Writers',
      columns: [
        column(1, 'region', text, { nullable: false }),
        column(2, 'id', int4, { nullable: false }),
        column(3, 'name', text, { nullable: false, default: "'anon'::text", comment: 'Pen name' }),
        column(4, 'mood', pgType('mood', 'mood', { schema: 'public', kind: 'e', category: 'E' })),
        column(5, 'tags', pgType('_text', 'text[]', { element: { schema: 'pg_catalog', name: 'text' } })),
      ],
      primaryKey: { name: 'author_pkey', columns: ['region', 'id'] },
      uniqueConstraints: [],
      foreignKeys: [],
      constraintNames: ['author_pkey'],
      insertable: true,
      updatable: true,
      deletable: true,
    } satisfies CatalogTable);
  });

  it('describes keys, a composite foreign key and typmods', async () => {
    expect(table('public', 'article')).toEqual({
      oid: await oidOf('public.article'),
      schema: 'public',
      name: 'article',
      kind: 'table',
      comment: null,
      columns: [
        column(1, 'id', int4, { nullable: false, default: "nextval('article_id_seq'::regclass)" }),
        column(2, 'author_id', int4, { nullable: false }),
        column(3, 'author_region', text, { nullable: false }),
        column(4, 'title', pgType('varchar', 'character varying(200)'), { nullable: false }),
        column(5, 'created_at', pgType('timestamptz', 'timestamp with time zone', { category: 'D' }), {
          nullable: false,
          default: 'now()',
        }),
      ],
      primaryKey: { name: 'article_pkey', columns: ['id'] },
      uniqueConstraints: [{ name: 'article_title_key', columns: ['author_id', 'title'] }],
      foreignKeys: [
        {
          name: 'article_author_fkey',
          columns: ['author_id', 'author_region'],
          refTable: { schema: 'public', name: 'author' },
          refColumns: ['id', 'region'],
        },
      ],
      constraintNames: ['article_author_fkey', 'article_pkey', 'article_title_check', 'article_title_key'],
      insertable: true,
      updatable: true,
      deletable: true,
    } satisfies CatalogTable);
  });

  it('describes identity and generated columns in another schema', () => {
    const note = table('other', 'note');
    expect(note?.columns).toEqual([
      column(1, 'id', pgType('int8', 'bigint'), { nullable: false, isIdentity: true }),
      column(2, 'body', text),
      column(3, 'body_length', int4, { isGenerated: true }),
    ]);
    expect(note?.primaryKey).toEqual({ name: 'note_pkey', columns: ['id'] });
  });

  it('tells which views are mutable', () => {
    const mutability = (name: string) => {
      const t = table('public', name);
      return [t?.insertable, t?.updatable, t?.deletable];
    };
    expect(mutability('article_titles')).toEqual([true, true, true]);
    expect(mutability('author_stats')).toEqual([false, false, false]);
    expect(mutability('article_counts')).toEqual([false, false, false]);
    expect(table('public', 'author_stats')?.columns).toEqual([
      column(1, 'author_id', int4),
      column(2, 'articles', pgType('int8', 'bigint')),
    ]);
    expect(table('public', 'article_titles')?.primaryKey).toBeNull();
  });

  it('lists a foreign key to a partitioned table once', () => {
    expect(table('public', 'attendance')?.foreignKeys).toEqual([
      {
        name: 'attendance_event_fkey',
        columns: ['event_id', 'event_at'],
        refTable: { schema: 'public', name: 'event' },
        refColumns: ['id', 'at'],
      },
    ]);
    expect(table('public', 'attendance')?.constraintNames).toEqual(['attendance_event_fkey']);
    expect(table('public', 'event_2024')?.primaryKey).toEqual({ name: 'event_2024_pkey', columns: ['id', 'at'] });
  });

  it('lists functions of user schemas only, sorted by schema, name and oid', () => {
    expect(result.functions.map((f) => `${f.schema}.${f.name}`)).toEqual([
      'public.add',
      'public.author_articles',
      'public.label',
      'public.label',
      'public.total',
    ]);
    const [a, b] = functions('label');
    expect(a!.oid).toBeLessThan(b!.oid);
  });

  it('describes a set-returning function over a row type', () => {
    expect(functions('author_articles')).toEqual([
      {
        schema: 'public',
        name: 'author_articles',
        oid: expect.any(Number),
        comment: null,
        volatility: 'stable',
        returnsSet: true,
        returnType: rowType('public', 'article'),
        args: [{ name: 'a', type: rowType('public', 'author'), hasDefault: false }],
        language: 'sql',
        isAggregate: false,
        hasVariadic: false,
      },
    ] satisfies CatalogFunction[]);
  });

  it('describes default arguments and comments', async () => {
    expect(functions('add')).toEqual([
      {
        schema: 'public',
        name: 'add',
        oid: Number((await db.sql(`SELECT 'public.add(int, int, int)'::regprocedure::oid AS oid`)).rows[0].oid),
        comment: 'Adds up',
        volatility: 'immutable',
        returnsSet: false,
        returnType: int4,
        args: [
          { name: 'x', type: int4, hasDefault: false },
          { name: 'y', type: int4, hasDefault: true },
          { name: 'z', type: int4, hasDefault: true },
        ],
        language: 'sql',
        isAggregate: false,
        hasVariadic: false,
      },
    ] satisfies CatalogFunction[]);
  });

  it('describes overloads: unnamed arguments, OUT and VARIADIC arguments', () => {
    const [byInt, byText] = functions('label');
    expect(byInt).toMatchObject({
      volatility: 'volatile',
      returnsSet: false,
      returnType: text,
      args: [{ name: null, type: int4, hasDefault: false }],
    });
    expect(byInt!.hasVariadic).toBe(false);
    expect(byText).toMatchObject({
      hasVariadic: true,
      returnType: pgType('record', 'record', { kind: 'p', category: 'P' }),
      args: [
        { name: 't', type: text, hasDefault: false },
        {
          name: 'rest',
          type: pgType('_text', 'text[]', { element: { schema: 'pg_catalog', name: 'text' } }),
          hasDefault: true,
        },
      ],
    });
  });

  it('flags aggregates', () => {
    expect(functions('total')).toMatchObject([
      {
        returnType: int4,
        args: [{ name: null, type: int4, hasDefault: false }],
        language: 'internal',
        isAggregate: true,
      },
    ]);
    expect(result.functions.filter((f) => f.isAggregate).map((f) => f.name)).toEqual(['total']);
  });

  it('lists enum labels in sort order', () => {
    expect(result.enumTypes).toEqual([{ schema: 'public', name: 'mood', values: ['sad', 'meh', 'ok', 'happy'] }]);
  });
});

describe('introspectPg on many tables', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await freshDatabase();
    const columns = Array.from({ length: 9 }, (_, i) => `c${i + 1} text`).join(', ');
    await db.sql(`
      DO $$ BEGIN
        FOR i IN 1..500 LOOP
          EXECUTE format('CREATE TABLE %I (id int PRIMARY KEY, ${columns})', 't' || i);
        END LOOP;
      END $$`);
  }, 120_000);
  afterAll(() => db?.drop());

  it('introspects 500 tables of 10 columns', async () => {
    const pool = new pg.Pool({ connectionString: db.url, max: 1 });
    try {
      // The first query of a connection also fills its catalog caches, as at boot.
      let started = performance.now();
      const cold = await introspectPg(pool);
      const coldMs = performance.now() - started;
      started = performance.now();
      const warm = await introspectPg(pool);
      const warmMs = performance.now() - started;
      console.log(`introspection of 500 tables: ${coldMs.toFixed(1)} ms cold, ${warmMs.toFixed(1)} ms warm`);

      expect(cold.tables).toHaveLength(500);
      expect(cold.tables.every((t) => t.columns.length === 10 && t.primaryKey !== null)).toBe(true);
      expect(warm).toEqual(cold);
    } finally {
      await pool.end();
    }
  });
});
