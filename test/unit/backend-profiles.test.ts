/** Each backend's profile (what its kind is, as data) and where it is read: the default schema and an event trigger's `trigger_on_replication`. */
import { describe, expect, it } from 'vitest';
import { backendFor, loadEveryBackend } from '../../src/backends/registry.js';
import { installSpec } from '../../src/metadata/event-triggers.js';

await loadEveryBackend();

describe('backend profiles', () => {
  it('name the default schema and the replication default of each kind, as the well-known engine has them', () => {
    expect(['postgres', 'citus', 'mssql', 'bigquery'].map((k) => [k, backendFor(k)!.profile])).toEqual([
      ['postgres', { defaultSchema: 'public', triggerOnReplication: false }],
      ['citus', { defaultSchema: 'public', triggerOnReplication: false }],
      ['mssql', { defaultSchema: 'dbo', triggerOnReplication: true }],
      ['bigquery', { defaultSchema: '', triggerOnReplication: false }],
    ]);
  });

  it("give a trigger without trigger_on_replication its kind's default; one that says it keeps its own", () => {
    const table = { schema: 'dbo', name: 'author' };
    const trigger = { name: 't', definition: { insert: { columns: '*' } } };
    expect(installSpec(table, trigger, backendFor('mssql')!.profile.triggerOnReplication).triggerOnReplication).toBe(true);
    expect(installSpec(table, trigger, backendFor('postgres')!.profile.triggerOnReplication).triggerOnReplication).toBe(false);
    expect(installSpec(table, { ...trigger, trigger_on_replication: false }, true).triggerOnReplication).toBe(false);
  });

  it('are put together once per kind', () => {
    expect(backendFor('mssql')).toBe(backendFor('mssql'));
    expect(backendFor('nope')).toBeUndefined();
  });
});
