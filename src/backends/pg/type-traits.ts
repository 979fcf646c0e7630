/**
 * PostgreSQL's types in the neutral vocabulary (`metadata/catalog.ts`): the GraphQL scalar of
 * each (named as the well-known engine names them), its operator family, and how a literal of it
 * is decoded in a boolean expression (the well-known engine's decoder names, for its messages).
 */
import type { CatalogType, LiteralShape, QualifiedName, TypeFamily, TypeKind, TypeTraits } from '../../catalog/types.js';
import { literal, typeTraits } from '../../catalog/type-traits.js';

/** A type as the introspection query writes it: pg_type's own codes. */
export interface PgTypeRow {
  schema: string;
  name: string;
  display: string;
  /** pg_type.typtype */
  kind: string;
  /** pg_type.typcategory: `N` numeric, `S` string, `A` array... */
  category: string;
  element: QualifiedName | null;
  /** A composite type made by CREATE TYPE ... AS (not a table's row type). */
  standalone?: true;
}

const KINDS: Record<string, TypeKind> = { b: 'base', c: 'composite', d: 'domain', e: 'enum', p: 'pseudo', r: 'range', m: 'multirange' };

/** Types whose values are GraphQL's own scalars. */
const GRAPHQL_SCALAR: Record<string, string> = {
  int2: 'Int',
  int4: 'Int',
  float4: 'Float',
  float8: 'Float',
  bool: 'Boolean',
  text: 'String',
  varchar: 'String',
  bpchar: 'String',
  citext: 'String',
  name: 'String',
};

const FAMILY: Record<string, TypeFamily> = {
  jsonb: 'binary-json',
  json: 'json',
  ltree: 'label-tree',
  geometry: 'geometry',
  geography: 'geography',
  bool: 'boolean',
  text: 'text',
  varchar: 'text',
  bpchar: 'text',
  citext: 'text',
  name: 'text',
};

const LITERALS: Record<string, LiteralShape> = {
  int2: literal('integer', 'Int16'),
  int4: literal('integer', 'Int32'),
  int8: literal('integer', 'Int64'),
  float4: literal('number', 'Float'),
  float8: literal('number', 'Double'),
  numeric: literal('number', 'Scientific'),
  money: literal('number', 'Scientific'),
  bool: literal('boolean', 'Bool'),
  text: literal('string', 'Text'),
  varchar: literal('string', 'Text'),
  bpchar: literal('string', 'Text'),
  citext: literal('string', 'Text'),
  name: literal('string', 'Text'),
  char: literal('string', 'Text'),
  date: literal('string', 'Day'),
  timestamp: literal('string', 'LocalTime'),
  timestamptz: literal('string', 'UTCTime'),
  time: literal('string', 'TimeOfDay'),
  timetz: literal('string', 'ZonedTime'),
  uuid: literal('string', 'UUID'),
};

/** Beyond a JSON number's exact range (stringified on request, as the well-known engine's `stringify-numeric-types`). */
const WIDE = new Set(['int8', 'numeric', 'float8']);
/** Ordered in PostgreSQL but not for min/max and stream cursors, as the well-known engine decides. */
const UNCOMPARABLE = new Set(['point', 'xml']);

function traitsOf(t: PgTypeRow, kind: TypeKind): TypeTraits {
  // A table's row type would take its table's object type name: `<type>_scalar`, as the
  // well-known engine names it; a value is the row's text form, "(1,'Roger','Chris')". A
  // composite type of its own keeps its name, as the well-known engine names a column's type
  // it has no scalar of its own for (`complex`).
  const scalar = GRAPHQL_SCALAR[t.name] ?? (kind === 'composite' && !t.standalone ? `${t.name}_scalar` : t.name === 'int8' ? 'bigint' : t.name);
  const family = FAMILY[t.name] ?? (t.category === 'N' ? 'numeric' : 'other');
  const base = typeTraits(scalar, family, { wide: WIDE.has(t.name), literal: LITERALS[t.name] ?? null });
  const array = t.category === 'A' || t.element !== null;
  return { ...base, summable: family === 'numeric' && t.name !== 'money', comparable: base.comparable && !array && !UNCOMPARABLE.has(t.name) };
}

/**
 * A catalog type from its row. Types are interned: the columns of one type share one object
 * (and one traits object), so a catalog of many tables holds each type once.
 */
export function typeInterner(): (t: PgTypeRow) => CatalogType {
  const seen = new Map<string, CatalogType>();
  return (t) => {
    const key = `${t.schema}\u0000${t.name}\u0000${t.display}`;
    let found = seen.get(key);
    if (!found) {
      const kind = KINDS[t.kind] ?? 'base';
      found = { schema: t.schema, name: t.name, display: t.display, kind, element: t.element, traits: traitsOf(t, kind) };
      seen.set(key, found);
    }
    return found;
  };
}

const builtIn = typeInterner();

/** The `text` type, for operands compared as text. */
export const TEXT_TYPE: CatalogType = builtIn({ schema: 'pg_catalog', name: 'text', display: 'text', kind: 'b', category: 'S', element: null });

/**
 * The type a `_cast` comparison casts to: `text`, or PostGIS's `geometry`/`geography`, named
 * unqualified (as the `_st_*` operators name them: PostGIS is found on the search path).
 */
export function castTarget(name: string): CatalogType {
  return name === 'text' ? TEXT_TYPE : builtIn({ schema: 'public', name, display: name, kind: 'b', category: 'U', element: null });
}
