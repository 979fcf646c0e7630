/**
 * graphql-js's KnownTypeNamesRule for executable documents, looking names up one by one and
 * listing the schema's type names only for the suggestions of an unknown one. The original
 * lists every type name each time a document is validated: 17 ms per plan-cache miss at 5,000
 * tables (150,000 types), and every type of a lazily built schema (schema/lazy-schema.ts).
 */
import { GraphQLError, type ASTVisitor, type ValidationContext } from 'graphql';
import { didYouMean } from 'graphql/jsutils/didYouMean.js';
import { suggestionList } from 'graphql/jsutils/suggestionList.js';

export function KnownTypeNamesRule(context: ValidationContext): ASTVisitor {
  const schema = context.getSchema();
  return {
    NamedType(node) {
      const name = node.name.value;
      if (schema.getType(name)) return;
      const suggested = context.hideSuggestions ? [] : suggestionList(name, Object.keys(schema.getTypeMap()));
      context.reportError(new GraphQLError(`Unknown type "${name}".` + didYouMean(suggested), { nodes: node }));
    },
  };
}
