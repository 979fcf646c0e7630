import { describe, expect, it } from 'vitest';
import { InOrder } from '../../src/util/in-order.js';

describe('steps in order', () => {
  it('run at once while nothing waits, and after a step that waits otherwise', async () => {
    const seen: string[] = [];
    const errors: unknown[] = [];
    const order = new InOrder((e) => errors.push(e));
    order.run(null, () => seen.push('a'));
    expect(seen).toEqual(['a']);
    let release!: () => void;
    order.run(new Promise<void>((r) => (release = r)), () => seen.push('b'));
    order.run(null, () => seen.push('c'));
    expect(seen).toEqual(['a']);
    release();
    await new Promise((r) => setTimeout(r, 0));
    expect(seen).toEqual(['a', 'b', 'c']);
    // Nothing waits any more: at once again.
    order.run(null, () => seen.push('d'));
    expect(seen).toEqual(['a', 'b', 'c', 'd']);
    expect(errors).toEqual([]);
  });

  it('reports a failed wait and goes on with the next steps', async () => {
    const seen: string[] = [];
    const errors: unknown[] = [];
    const order = new InOrder((e) => errors.push(e));
    order.run(Promise.reject(new Error('no module')), () => seen.push('a'));
    order.run(null, () => seen.push('b'));
    await new Promise((r) => setTimeout(r, 0));
    expect(seen).toEqual(['b']);
    expect(errors).toEqual([new Error('no module')]);
  });
});
