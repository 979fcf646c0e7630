/**
 * Limits of a GraphQL document, checked before anything recursive (validation rules,
 * the selection compiler, SQL building) walks it: at most MAX_GRAPHQL_TOKENS tokens
 * (graphql-js's parser option) and selection sets, lists and input objects nested at
 * most MAX_NESTING_DEPTH levels. The well-known engine has no such limits; ours are
 * in docs/behaviour.md.
 */
import { BREAK, Kind, parse, visit, type ASTNode, type DocumentNode } from 'graphql';
import { MAX_NESTING_DEPTH } from '../util/nesting.js';
import { RequestError } from '../errors/request.js';

export const MAX_GRAPHQL_TOKENS = 100_000;

const NESTING = new Set<string>([Kind.SELECTION_SET, Kind.LIST, Kind.OBJECT]);

export function parseDocument(query: string): DocumentNode {
  let doc: DocumentNode;
  try {
    doc = parse(query, { maxTokens: MAX_GRAPHQL_TOKENS });
  } catch (e) {
    if (e instanceof Error && /token limit/i.test(e.message)) {
      throw new RequestError(`the query has more than ${MAX_GRAPHQL_TOKENS} tokens`, '$.query', 'validation-failed');
    }
    // The well-known engine's words, without the parser's detail.
    throw new RequestError('not a valid graphql query', '$.query', 'validation-failed');
  }
  // graphql-js's visit() keeps its own stack: it does not recurse.
  let depth = 0;
  let tooDeep = false;
  visit(doc, {
    enter(node: ASTNode) {
      if (!NESTING.has(node.kind)) return undefined;
      if (++depth <= MAX_NESTING_DEPTH) return undefined;
      tooDeep = true;
      return BREAK;
    },
    leave(node: ASTNode) {
      if (NESTING.has(node.kind)) depth--;
    },
  });
  if (tooDeep) throw new RequestError(`the query is nested deeper than ${MAX_NESTING_DEPTH} levels`, '$.query', 'validation-failed');
  return doc;
}
