/** PostgreSQL types as GraphQL scalars, named as the well-known engine names them. */
import { GraphQLBoolean, GraphQLFloat, GraphQLInt, GraphQLScalarType, GraphQLString, type GraphQLScalarType as Scalar } from 'graphql';
import type { CatalogType } from '../metadata/catalog.js';

const BUILTIN: Record<string, Scalar> = {
  int2: GraphQLInt,
  int4: GraphQLInt,
  float4: GraphQLFloat,
  float8: GraphQLFloat,
  bool: GraphQLBoolean,
  text: GraphQLString,
  varchar: GraphQLString,
  bpchar: GraphQLString,
  citext: GraphQLString,
  name: GraphQLString,
};

/** Names of the GraphQL scalars for the other types (`int8` is `bigint`, arrays are `_int4`, ...). */
const RENAMED: Record<string, string> = {
  int8: 'bigint',
  bpchar: 'bpchar',
  timestamp: 'timestamp',
  timestamptz: 'timestamptz',
};

/** The GraphQL scalar name a column of this type has. */
export function scalarName(t: CatalogType): string {
  const builtin = BUILTIN[t.name];
  if (builtin) return builtin.name;
  // A composite (a table's row type) would take its table's object type name: `<type>_scalar`,
  // as the well-known engine names it; a value is the row's text form, "(1,'Roger','Chris')".
  if (t.kind === 'c') return `${t.name}_scalar`;
  return RENAMED[t.name] ?? t.name;
}

/** How a scalar's comparison operators are chosen. */
export type ScalarFamily = 'numeric' | 'text' | 'boolean' | 'json' | 'jsonb' | 'ltree' | 'geometry' | 'geography' | 'other';

export function scalarFamily(t: CatalogType): ScalarFamily {
  if (t.name === 'jsonb') return 'jsonb';
  if (t.name === 'json') return 'json';
  if (t.name === 'ltree') return 'ltree';
  if (t.name === 'geometry') return 'geometry';
  if (t.name === 'geography') return 'geography';
  if (t.name === 'bool') return 'boolean';
  if (['text', 'varchar', 'bpchar', 'citext', 'name'].includes(t.name)) return 'text';
  if (t.category === 'N') return 'numeric';
  return 'other';
}

/** Whether sum/avg/stddev/variance apply. */
export const isNumeric = (t: CatalogType) => t.category === 'N' && t.name !== 'money';

/** Whether min/max apply (ordered types other than json/bool/geometry). */
export const isComparable = (t: CatalogType) => !['json', 'jsonb', 'bool', 'geometry', 'geography', 'point', 'xml'].includes(t.name) && t.category !== 'A';

const custom = new Map<string, GraphQLScalarType>();

/** One GraphQLScalarType per name (shared by every role's schema of a snapshot version). */
export function scalarType(name: string): Scalar {
  const builtin = Object.values(BUILTIN).find((s) => s.name === name);
  if (builtin) return builtin;
  let s = custom.get(name);
  if (!s) {
    s = new GraphQLScalarType({ name });
    custom.set(name, s);
  }
  return s;
}
