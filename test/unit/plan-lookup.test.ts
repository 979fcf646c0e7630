/**
 * Finding a request's plan on the front thread: a cache hit is answered synchronously (no
 * promise on the hot path), a burst of misses waits for one compile, and a metadata change
 * evicts only the plans that read what it changed.
 */
import { describe, expect, it } from 'vitest';
import { SnapshotBus } from '../../src/actors/snapshot-bus.js';
import { makeSession } from '../../src/auth/session.js';
import { PlanLookup, type Compiler } from '../../src/graphql/plan-lookup.js';
import type { MetadataChanges } from '../../src/metadata/changes.js';
import type { Plan } from '../../src/protocol/plan.js';
import type { PublishedSnapshot } from '../../src/protocol/snapshot.js';

const TABLE_A = 'default\u0000public.a';
const TABLE_B = 'default\u0000public.b';

const snapshot = (generation: number, changes: MetadataChanges): PublishedSnapshot => ({
  version: generation,
  generation,
  base: null,
  changes,
  connected: [],
  restEndpoints: [],
  tlsAllowlist: [],
  remoteSchemas: [],
  eventTriggers: [],
  cronTriggers: [],
  asyncActions: [],
  opentelemetry: null,
  update: new Uint8Array(new SharedArrayBuffer(0)),
});

/** A compiler whose plans read table a; it counts its compiles, which wait while it is held. */
function compiler(): Compiler & { compiles: number; hold(): () => void } {
  let gate: Promise<void> = Promise.resolve();
  const c = {
    compiles: 0,
    hold: () => {
      let release!: () => void;
      gate = new Promise<void>((r) => (release = r));
      return release;
    },
    compile: async () => {
      c.compiles++;
      await gate;
      const plan: Plan = { operation: 'query', steps: [], variables: [], shape: [], sessionVariables: [], queryHash: 'h', size: { depth: 1, nodes: 1 }, reads: { everything: false, sources: [], tables: [TABLE_A] } };
      return { ok: true as const, plan };
    },
  };
  return c;
}

const user = makeSession('user', {}, { isAdmin: false, useBackendOnlyPermissions: false });
const request = { query: '{ a { id } }', operationName: null, variables: {} };

describe('PlanLookup', () => {
  it('answers a cache hit synchronously, and a burst of misses with one compile', async () => {
    const bus = new SnapshotBus();
    bus.publish(snapshot(1, { everything: true, sources: [], tables: [] }));
    const c = compiler();
    const release = c.hold();
    const plans = new PlanLookup(c, bus, 100, false, 10);
    const misses = [plans.plan(user, request), plans.plan(user, request), plans.plan(user, { ...request })];
    for (const m of misses) expect(m).toBeInstanceOf(Promise);
    release();
    const compiled = await Promise.all(misses);
    expect(c.compiles).toBe(1);
    const hit = plans.plan(user, request);
    expect(hit).not.toBeInstanceOf(Promise);
    expect(hit).toBe(compiled[0]);
  });

  it('keeps a plan through a change to a table it does not read, and compiles it again after one to its table', async () => {
    const bus = new SnapshotBus();
    bus.publish(snapshot(1, { everything: true, sources: [], tables: [] }));
    const c = compiler();
    const plans = new PlanLookup(c, bus, 100, false, 10);
    await plans.plan(user, request);
    bus.publish(snapshot(2, { everything: false, sources: [], tables: [{ key: TABLE_B, roles: null }] }));
    expect(plans.plan(user, request)).not.toBeInstanceOf(Promise);
    bus.publish(snapshot(3, { everything: false, sources: [], tables: [{ key: TABLE_A, roles: ['editor'] }] }));
    expect(plans.plan(user, request)).not.toBeInstanceOf(Promise);
    bus.publish(snapshot(4, { everything: false, sources: [], tables: [{ key: TABLE_A, roles: ['user'] }] }));
    const again = plans.plan(user, request);
    expect(again).toBeInstanceOf(Promise);
    await again;
    expect(c.compiles).toBe(2);
  });
});
