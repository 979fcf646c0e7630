/** Root types name their fields up front and make them a group at a time, when first read. */
import { GraphQLInt, GraphQLString } from 'graphql';
import { describe, expect, it } from 'vitest';
import { fieldGroup, LazyFieldsType, madeFields } from '../../src/schema/lazy-fields.js';

function counted() {
  const made: string[] = [];
  const field = (name: string, type = GraphQLInt) => [name, () => (made.push(name), { type })] as const;
  return { made, field };
}

describe('LazyFieldsType', () => {
  it('names every field in order and makes a group only when one of its fields is read', () => {
    const { made, field } = counted();
    const t = new LazyFieldsType('query_root', () => [fieldGroup([field('b'), field('b_aggregate')]), fieldGroup([field('a')])], true);
    expect(Object.keys(t.getFields())).toEqual(['a', 'b', 'b_aggregate']);
    expect(made).toEqual([]);
    expect(t.getFields().b_aggregate!.type).toBe(GraphQLInt);
    expect(made).toEqual(['b', 'b_aggregate']);
    expect(t.builtFields().map((f) => f.name)).toEqual(['b', 'b_aggregate']);
    expect(t.getFields().b).toBe(t.getFields().b);
    expect(made).toEqual(['b', 'b_aggregate']);
  });

  it('gives a name two groups have to the later one, and makes the rest at once', () => {
    const { made, field } = counted();
    const t = new LazyFieldsType('ns', () => [fieldGroup([field('x'), field('y')]), madeFields({ y: { type: GraphQLString } }), fieldGroup([field('z')])], false);
    expect(Object.keys(t.getFields())).toEqual(['x', 'y', 'z']);
    t.buildAll();
    expect(made).toEqual(['x', 'y', 'z']);
    expect(t.getFields().y!.type).toBe(GraphQLString);
    expect(Object.values(t.getFields()).map((f) => f.name)).toEqual(['x', 'y', 'z']);
  });

  it('lists, tests and misses names without making a field', () => {
    const { made, field } = counted();
    const t = new LazyFieldsType('query_root', () => [fieldGroup([field('b')]), fieldGroup([field('a')])], true);
    const fields = t.getFields();
    expect(Object.keys(fields)).toEqual(['a', 'b']);
    expect('a' in fields).toBe(true);
    expect('c' in fields).toBe(false);
    expect(fields.c).toBeUndefined();
    expect(made).toEqual([]);
    expect(Object.getOwnPropertyDescriptor(fields, 'a')?.enumerable).toBe(true);
    expect(made).toEqual([]);
    expect(Object.entries(fields).map(([name, f]) => [name, f.name])).toEqual([['a', 'a'], ['b', 'b']]);
    expect(made).toEqual(['a', 'b']);
    expect(Object.getOwnPropertyDescriptor(fields, 'b')?.value).toBe(fields.b);
  });
});
