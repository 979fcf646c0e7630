/**
 * A document checked against a role's schema with graphql-js's rules, its first error in
 * the well-known engine's words, paths and order.
 */
import { Kind, KnownDirectivesRule, NoUnusedVariablesRule, SingleFieldSubscriptionsRule, specifiedRules, validate, KnownTypeNamesRule as GraphQLKnownTypeNamesRule, type DocumentNode, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import type { RequestError } from '../errors/request.js';
import { KnownTypeNamesRule } from './known-type-names.js';
import { graphqlErrorToRequestError } from './validation-errors.js';
import { cachedDirectiveError, KnownDirectivesExceptCached } from './cached-directive.js';

/**
 * graphql-js's rules, less one the well-known engine does not apply (unused variables are
 * fine), one made cheaper, one that lets the well-known engine's `@cached` through, and the
 * subscription's single root field, checked on its own after the others: upstream counts a
 * subscription's root fields once its selection set is valid.
 */
const RULES = specifiedRules
  .filter((r) => r !== NoUnusedVariablesRule && r !== SingleFieldSubscriptionsRule)
  .map((r) => (r === GraphQLKnownTypeNamesRule ? KnownTypeNamesRule : r === KnownDirectivesRule ? KnownDirectivesExceptCached : r));

/** The document's first validation error (paths inside `op`), or null. */
export function validationError(schema: GraphQLSchema, doc: DocumentNode, op: OperationDefinitionNode): RequestError | null {
  const [first] = validate(schema, doc, RULES);
  if (first) return graphqlErrorToRequestError(first, op);
  const cached = cachedDirectiveError(doc);
  if (cached) return cached;
  const subscribes = doc.definitions.some((d) => d.kind === Kind.OPERATION_DEFINITION && d.operation === 'subscription');
  const [single] = subscribes ? validate(schema, doc, [SingleFieldSubscriptionsRule]) : [];
  return single ? graphqlErrorToRequestError(single, op) : null;
}
