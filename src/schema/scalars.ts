/** A column type's GraphQL scalar: the one its backend named in the type's traits. */
import { GraphQLBoolean, GraphQLFloat, GraphQLID, GraphQLInt, GraphQLScalarType, GraphQLString, type GraphQLScalarType as Scalar } from 'graphql';
import type { CatalogType } from '../catalog/types.js';

const BUILTIN: Record<string, Scalar> = { Int: GraphQLInt, Float: GraphQLFloat, String: GraphQLString, Boolean: GraphQLBoolean, ID: GraphQLID };

const custom = new Map<string, GraphQLScalarType>();

/** One GraphQLScalarType per name (shared by every role's schema of a snapshot version). */
export function scalarType(name: string): Scalar {
  const builtin = BUILTIN[name];
  if (builtin) return builtin;
  let s = custom.get(name);
  if (!s) {
    s = new GraphQLScalarType({ name });
    custom.set(name, s);
  }
  return s;
}

/** The GraphQL scalar a value of this type has. */
export const scalarOf = (t: CatalogType): Scalar => scalarType(t.traits.scalar);
