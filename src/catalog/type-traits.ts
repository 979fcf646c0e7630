/**
 * Building a type's neutral traits (`catalog.ts`): each backend's introspection describes its
 * types with these, so the defaults are stated once.
 */
import type { LiteralShape, TypeFamily, TypeTraits } from './types.js';

/** Families whose values have no order min/max could use. */
const UNORDERED: ReadonlySet<TypeFamily> = new Set(['boolean', 'json', 'binary-json', 'geometry', 'geography']);

/** Traits of a type with GraphQL scalar `scalar` in `family`: numbers sum, the others do not; ordered unless the family has no order. */
export function typeTraits(scalar: string, family: TypeFamily, more: Partial<Omit<TypeTraits, 'scalar' | 'family'>> = {}): TypeTraits {
  return { scalar, family, summable: family === 'numeric', comparable: !UNORDERED.has(family), wide: false, literal: null, ...more };
}

/** A literal's shape, as the well-known engine's decoder of that name reads it. */
export const literal = (json: LiteralShape['json'], decoder: string): LiteralShape => ({ json, decoder });

/** An order_by argument applies: ordered types and booleans. */
export const sortable = (t: TypeTraits) => t.comparable || t.family === 'boolean';

/** The GraphQL scalars of GraphQL itself: every other scalar a backend names is its own. */
export const GRAPHQL_SCALARS: ReadonlySet<string> = new Set(['Int', 'Float', 'String', 'Boolean', 'ID']);
