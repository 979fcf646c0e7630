/**
 * The root-field stage (metadata/resolve/root-fields.ts) on claims made by hand: which fields
 * two claims (or one claim twice) define, the well-known engine's message for them, and that
 * the memo's last verdict is reused only for the same claims.
 */
import { describe, expect, it } from 'vitest';
import { ResolveMemo } from '../../src/metadata/resolve/memo.js';
import { claimedField, conflictMessage, newConflicts, rootFieldConflicts, type RootFieldClaim } from '../../src/metadata/resolve/root-fields.js';

const claim = (origin: string, ...fields: [string, string][]): RootFieldClaim => ({ origin, fields: fields.map(([set, name]) => claimedField(set, name)) });
const a = claim('table a in source default', ['query_root', 'a'], ['query_root', 'a_aggregate'], ['subscription_root', 'a'], ['mutation_root', 'insert_a']);

describe('root-field conflicts', () => {
  it('finds the fields two claims define, per selection set, and one claim defining a field twice', () => {
    const b = claim('table b in source default', ['query_root', 'a'], ['mutation_root', 'a'], ['subscription_root', 'a']);
    const self = claim('table c in source default', ['query_root', 'c'], ['query_root', 'c']);
    expect(rootFieldConflicts([a, b, self], new ResolveMemo())).toEqual([
      { selectionSet: 'query_root', field: 'a', origins: ['table a in source default', 'table b in source default'] },
      { selectionSet: 'subscription_root', field: 'a', origins: ['table a in source default', 'table b in source default'] },
      { selectionSet: 'query_root', field: 'c', origins: ['table c in source default'] },
    ]);
  });

  it("words them as the well-known engine does: the mutation root first, then the subscription root, then the query root", () => {
    const b = claim('action a', ['query_root', 'a'], ['query_root', 'a_aggregate'], ['mutation_root', 'insert_a']);
    const conflicts = rootFieldConflicts([a, b], new ResolveMemo());
    expect(conflictMessage(conflicts)).toBe(
      "Encountered conflicting definitions in the selection set for 'mutation_root' for field 'insert_a' defined in [table a in source default, action a]. Fields must not be defined more than once across all sources.",
    );
    expect(conflictMessage(conflicts.filter((c) => c.selectionSet === 'query_root'))).toBe(
      "Encountered conflicting definitions in the selection set for 'query_root' for fields: ['a' defined in [table a in source default, action a], 'a_aggregate' defined in [table a in source default, action a]]. Fields must not be defined more than once across all sources.",
    );
    expect(newConflicts(conflicts, conflicts.slice(1))).toEqual([conflicts[0]]);
  });

  it("answers the memo's last verdict for the same claims (or equal ones), and checks again when a claim changed", () => {
    const memo = new ResolveMemo();
    const b = claim('table b in source default', ['query_root', 'b']);
    const first = rootFieldConflicts([a, b], memo);
    expect(first).toEqual([]);
    expect(rootFieldConflicts([a, claim('table b in source default', ['query_root', 'b'])], memo)).toBe(first);
    expect(rootFieldConflicts([a, claim('table b in source default', ['query_root', 'a'])], memo)).toEqual([{ selectionSet: 'query_root', field: 'a', origins: ['table a in source default', 'table b in source default'] }]);
  });
});
