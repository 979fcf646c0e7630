/** A query's text checked with `graphql`'s parser before it is sent, so a typo is shown at once, with its line and column. */
import { GraphQLError, parse } from 'graphql';

export function checkQuery(text: string): void {
  try {
    parse(text);
  } catch (e) {
    throw new Error(`The query is not valid GraphQL: ${e instanceof GraphQLError ? e.message : String(e)}`);
  }
}
