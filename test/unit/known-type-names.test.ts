import { buildSchema, KnownTypeNamesRule as GraphQLRule, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { KnownTypeNamesRule } from '../../src/compiler/known-type-names.js';

const schema = buildSchema('input Food { name: String } type Query { eat(food: Food): Int, pet: Pet } type Pet { name: String }');
const messages = (rule: typeof KnownTypeNamesRule, text: string) => validate(schema, parse(text), [rule]).map((e) => e.message);

describe('KnownTypeNamesRule', () => {
  it('answers as graphql-js does: unknown names with suggestions, known ones silently', () => {
    for (const text of ['query ($f: Fod) { eat(food: $f) }', '{ pet { ... on Pets { name } } }', 'query ($f: Food, $n: Int) { eat(food: $f) }']) {
      expect(messages(KnownTypeNamesRule, text)).toEqual(messages(GraphQLRule, text));
    }
    expect(messages(KnownTypeNamesRule, 'query ($f: Fod) { eat(food: $f) }')).toEqual(['Unknown type "Fod". Did you mean "Food"?']);
  });
});
