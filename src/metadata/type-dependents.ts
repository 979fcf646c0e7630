/**
 * Which permissions depend on a column's type: those that compare it with a fixed
 * value (which was checked against the type) or preset it with `set`. The
 * well-known engine refuses to change such a column's type.
 */
import { qualifiedKey, type DatabaseCatalog, type QualifiedName } from '../catalog/types.js';
import { isCast, type BoolExp, type ComparisonOp } from '../ir/boolexp.js';
import { sameTable, showTable } from './names.js';
import { resolveMetadata } from './resolve.js';
import { ResolveMemo } from './resolve/memo.js';
import { PERMISSION_KINDS, type ResolvedPermission, type ResolvedSource } from './resolve/types.js';
import type { Metadata } from './types.js';

interface Target {
  table: QualifiedName;
  column: string;
}

function comparesWithValue(b: BoolExp, at: QualifiedName, source: ResolvedSource, target: Target): boolean {
  switch (b.kind) {
    case 'and':
    case 'or':
      return b.items.some((x) => comparesWithValue(x, at, source, target));
    case 'not':
      return comparesWithValue(b.item, at, source, target);
    case 'exists':
    case 'computed_rows':
      return comparesWithValue(b.where, b.table, source, target);
    case 'relationship': {
      const rel = source.tables.get(qualifiedKey(at))?.relationships.get(b.relationship);
      return rel !== undefined && comparesWithValue(b.where, rel.target, source, target);
    }
    case 'column':
      return sameTable(at, target.table) && b.column === target.column && b.ops.some(withLiteral);
    case 'computed':
      return false;
  }
}

/** A comparison with a fixed value (through a cast too: the column's own type is what is cast). */
const withLiteral = (op: ComparisonOp): boolean => (isCast(op) ? op.ops.some(withLiteral) : op.value.kind === 'literal');

function dependsOnType(p: ResolvedPermission, owner: QualifiedName, source: ResolvedSource, target: Target): boolean {
  if (sameTable(owner, target.table) && target.column in p.set) return true;
  return [p.filter, p.check].some((b) => b !== null && comparesWithValue(b, owner, source, target));
}

/** Descriptions (`permission article.user.select`) of the permissions that depend on the column's type. */
export function staticComparisonDependents(m: Metadata, source: string, catalog: DatabaseCatalog, table: QualifiedName, column: string): string[] {
  // A one-off resolution of one source: nothing to keep for later.
  const resolved = resolveMetadata(m, new Map([[source, { introspection: catalog, error: null }]]), new ResolveMemo()).sources.get(source);
  if (!resolved) return [];
  const out: string[] = [];
  for (const t of resolved.tables.values()) {
    for (const kind of PERMISSION_KINDS) {
      for (const [role, p] of t.permissions[kind]) {
        if (dependsOnType(p, t.name, resolved, { table, column })) out.push(`permission ${showTable(t.name)}.${role}.${kind}`);
      }
    }
  }
  return out;
}
