import { describe, expect, it } from 'vitest';
import { bumpGenerations, decodeGenerations, encodeGenerations, movedGenerations, NO_GENERATIONS, sameGenerations } from '../../src/db/catalog-generations.js';
import type { Metadata } from '../../src/metadata/types.js';

const doc = (sources: string[], remotes: string[] = []): Metadata =>
  ({
    version: 3,
    sources: sources.map((name) => ({ name, kind: 'postgres', tables: [], configuration: {} })),
    remote_schemas: remotes.map((name) => ({ name, definition: { url: 'http://127.0.0.1:1/graphql' } })),
  }) as unknown as Metadata;

const reread = (sources: string[], remoteSchemas: string[] = []) => ({ sources: new Set(sources), remoteSchemas: new Set(remoteSchemas) });

describe('catalog generations', () => {
  it('a change moves the counts of what it re-read, and drops names the document no longer has', () => {
    const one = bumpGenerations(NO_GENERATIONS, reread(['a'], ['r']), doc(['a', 'b'], ['r']));
    expect(one).toEqual({ sources: { a: 1 }, remoteSchemas: { r: 1 } });
    const two = bumpGenerations(one, reread(['a', 'b']), doc(['a', 'b']));
    expect(two).toEqual({ sources: { a: 2, b: 1 }, remoteSchemas: {} });
  });

  it('an engine that served one state re-reads what moved since', () => {
    const before = { sources: { a: 1, b: 1 }, remoteSchemas: { r: 2 } };
    const after = { sources: { a: 2, b: 1, c: 1 }, remoteSchemas: { r: 2 } };
    expect(movedGenerations(before, after)).toEqual(reread(['a', 'c']));
    expect(sameGenerations(before, after)).toBe(false);
    expect(sameGenerations(after, { sources: { c: 1, b: 1, a: 2 }, remoteSchemas: { r: 2 } })).toBe(true);
  });

  it('round-trips through the stored JSON; anything else stored counts as nothing re-read', () => {
    const g = { sources: { a: 3 }, remoteSchemas: { r: 1 } };
    expect(decodeGenerations(JSON.parse(encodeGenerations(g)))).toEqual(g);
    expect(decodeGenerations(null)).toEqual(NO_GENERATIONS);
    expect(decodeGenerations({ sources: { a: 'x', b: 2 }, remote_schemas: [1] })).toEqual({ sources: { b: 2 }, remoteSchemas: {} });
  });
});
