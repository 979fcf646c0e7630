import { describe, expect, it } from 'vitest';
import { SnapshotBus, type SnapshotSource } from '../../src/actors/snapshot-bus.js';
import type { MetadataActorEvent } from '../../src/protocol/messages.js';
import type { PublishedSnapshot } from '../../src/protocol/snapshot.js';

const shared = (n = 0) => new Uint8Array(new SharedArrayBuffer(n));
const header = (generation: number): Omit<PublishedSnapshot, 'update'> => ({ version: generation, generation, base: null, changes: { everything: true, sources: [], tables: [] }, connected: [], restEndpoints: [], tlsAllowlist: [], remoteSchemas: [], eventTriggers: [], cronTriggers: [], asyncActions: [], opentelemetry: null });

/** The metadata actor as the bus sees it: events with an attachment. */
function fakeActor(): SnapshotSource & { emit(e: MetadataActorEvent, attachment?: Uint8Array): void } {
  const listeners: ((e: MetadataActorEvent, attachment: Uint8Array | undefined) => void)[] = [];
  return { onEvent: (l) => listeners.push(l), emit: (e, a) => listeners.forEach((l) => l(e, a)) };
}

describe('SnapshotBus', () => {
  it("delivers the metadata actor's snapshots, with their update's bytes, to every subscriber", () => {
    const bus = new SnapshotBus();
    const actor = fakeActor();
    bus.follow(actor);
    const seen: [string, number][] = [];
    bus.subscribe((s) => seen.push(['a', s.generation]));
    bus.subscribe((s) => seen.push(['b', s.update.byteLength]));
    actor.emit({ type: 'snapshot', snapshot: header(1) }, shared(3));
    // An event without its bytes in shared memory is not a snapshot anyone can use.
    actor.emit({ type: 'snapshot', snapshot: header(2) });
    actor.emit({ type: 'snapshot', snapshot: header(3) }, new Uint8Array(3));
    expect(seen).toEqual([
      ['a', 1],
      ['b', 3],
    ]);
  });

  it('passes staged snapshots (and their dropping) to its staged listeners only, never as published', () => {
    const bus = new SnapshotBus();
    const actor = fakeActor();
    bus.follow(actor);
    const published: number[] = [];
    const staged: (number | null)[] = [];
    bus.subscribe((s) => published.push(s.generation));
    bus.onStaged((s) => staged.push(s && s.generation));
    actor.emit({ type: 'staged', snapshot: header(1) }, shared(3));
    actor.emit({ type: 'unstaged' });
    actor.emit({ type: 'staged', snapshot: header(2) }, shared(3));
    actor.emit({ type: 'snapshot', snapshot: header(2) }, shared(3));
    expect(staged).toEqual([1, null, 2]);
    expect(published).toEqual([2]);
    // A listener added later is not given the last staged one.
    const late: unknown[] = [];
    bus.onStaged((s) => late.push(s));
    expect(late).toEqual([]);
  });

  it('gives a late subscriber the current snapshot at once, and stops after unsubscribing', () => {
    const bus = new SnapshotBus();
    bus.publish({ ...header(1), update: shared() });
    const seen: number[] = [];
    const stop = bus.subscribe((s) => seen.push(s.generation));
    bus.publish({ ...header(2), update: shared() });
    stop();
    bus.publish({ ...header(3), update: shared() });
    expect(seen).toEqual([1, 2]);
  });

  it('keeps delivering to the other subscribers when one of them throws', () => {
    const bus = new SnapshotBus();
    const seen: number[] = [];
    bus.subscribe(() => {
      throw new Error('a bug');
    });
    bus.subscribe((s) => seen.push(s.generation));
    expect(() => bus.publish({ ...header(1), update: shared() })).not.toThrow();
    expect(seen).toEqual([1]);
  });

  it('holds a snapshot while what it needs is made ready, and the events after it too, in order', async () => {
    const bus = new SnapshotBus();
    const actor = fakeActor();
    let release!: () => void;
    const needs = new Promise<void>((r) => (release = r));
    bus.follow(actor, (s) => (s.generation === 1 ? needs : null));
    const seen: string[] = [];
    bus.subscribe((s) => seen.push(`published ${s.generation}`));
    bus.onStaged((s) => seen.push(`staged ${s?.generation ?? 'none'}`));
    const first = bus.first();
    actor.emit({ type: 'snapshot', snapshot: header(1) }, shared(3));
    actor.emit({ type: 'staged', snapshot: header(2) }, shared(3));
    actor.emit({ type: 'snapshot', snapshot: header(2) }, shared(3));
    expect(seen).toEqual([]);
    release();
    expect((await first).generation).toBe(1);
    await new Promise((r) => setTimeout(r, 0));
    expect(seen).toEqual(['published 1', 'staged 2', 'published 2']);
  });

  it('fails the wait for the first snapshot when it cannot be made ready (the boot fails, it does not hang)', async () => {
    const bus = new SnapshotBus();
    const actor = fakeActor();
    bus.follow(actor, () => Promise.reject(new Error('no backend module')));
    const first = bus.first();
    actor.emit({ type: 'snapshot', snapshot: header(1) }, shared(3));
    await expect(first).rejects.toThrow('no backend module');
  });
});
