/**
 * Root fields that two objects would both define (the well-known engine's schema build): every
 * field of a selection set (a root, or a source's namespace type) must be defined once across
 * all sources and actions, or the schema cannot be built. The well-known engine refuses the
 * metadata change that would make such a schema, with "Encountered conflicting definitions in
 * the selection set for 'query_root' for field 'a' defined in [table b in source default,
 * table a in source default]. Fields must not be defined more than once across all sources."
 * (code `unexpected`), checking the mutation root, then the subscription root, then the query
 * root. Remote schemas are not claimants here: one that would take a field is inconsistent
 * instead (resolve/remote-schemas.ts), as there.
 *
 * The claims are listed by the caller from the schema builder's own naming (`AdminSchemaChecks`,
 * metadata/resolve.ts): the admin's schema, whose root fields every role's are a part of.
 */
import type { ResolveMemo } from './memo.js';
import type { RootFieldClaim, RootFieldConflict } from './types.js';

export type { RootFieldClaim, RootFieldConflict } from './types.js';

/** A field of a selection set, as claims list it. */
export const claimedField = (selectionSet: string, name: string) => `${selectionSet}\u0000${name}`;

const sameList = (a: readonly string[], b: readonly string[]) => a === b || (a.length === b.length && a.every((x, i) => x === b[i]));
const sameClaim = (a: RootFieldClaim, b: RootFieldClaim) => a === b || (a.origin === b.origin && sameList(a.fields, b.fields));

/**
 * The fields claimed more than once. A change that claims the same names as the last list
 * (a permission change: the admin's root fields do not depend on permissions) answers the last
 * verdict from `memo`: comparing 5,000 tables' claims by identity costs microseconds, indexing
 * their 55,000 fields milliseconds.
 */
export function rootFieldConflicts(claims: readonly RootFieldClaim[], memo: ResolveMemo): RootFieldConflict[] {
  const kept = memo.rootFields;
  if (kept && kept.claims.length === claims.length && kept.claims.every((c, i) => sameClaim(c, claims[i]!))) {
    memo.rootFields = { claims, conflicts: kept.conflicts };
    return kept.conflicts;
  }
  const owners = new Map<string, string[]>();
  const twice: string[] = [];
  // An object may claim a field twice itself (a custom root field named as another of its fields).
  for (const { origin, fields } of claims) {
    for (const f of fields) {
      const list = owners.get(f);
      if (!list) owners.set(f, [origin]);
      else {
        if (list.length === 1) twice.push(f);
        list.push(origin);
      }
    }
  }
  const conflicts = twice.map((f) => {
    const [selectionSet, field] = f.split('\u0000') as [string, string];
    return { selectionSet, field, origins: [...new Set(owners.get(f))] };
  });
  memo.rootFields = { claims, conflicts };
  return conflicts;
}

/** The well-known engine checks the roots in this order; namespace types come after them. */
const ROOT_ORDER = ['mutation_root', 'subscription_root', 'query_root'];
const rootRank = (selectionSet: string) => {
  const i = ROOT_ORDER.indexOf(selectionSet);
  return i < 0 ? ROOT_ORDER.length : i;
};

/** Conflicts that are not among `before` (by selection set and field). */
export function newConflicts(after: readonly RootFieldConflict[], before: readonly RootFieldConflict[]): RootFieldConflict[] {
  const had = new Set(before.map((c) => claimedField(c.selectionSet, c.field)));
  return after.filter((c) => !had.has(claimedField(c.selectionSet, c.field)));
}

/** The well-known engine's message for the first selection set with conflicts (`conflicts` not empty). */
export function conflictMessage(conflicts: readonly RootFieldConflict[]): string {
  const first = [...conflicts].sort((a, b) => rootRank(a.selectionSet) - rootRank(b.selectionSet))[0]!;
  const inSet = conflicts.filter((c) => c.selectionSet === first.selectionSet);
  const entry = (c: RootFieldConflict) => `'${c.field}' defined in [${c.origins.join(', ')}]`;
  const fields = inSet.length === 1 ? `field ${entry(first)}` : `fields: [${inSet.map(entry).join(', ')}]`;
  return `Encountered conflicting definitions in the selection set for '${first.selectionSet}' for ${fields}. Fields must not be defined more than once across all sources.`;
}
