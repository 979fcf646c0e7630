/** Stage 3: each relationship joins to a tracked table through a foreign key or a manual mapping. */
import { qualifiedKey } from '../../catalog/types.js';
import { distributionRefusal } from '../distribution.js';
import { isGraphQLName } from '../names.js';
import { RelationshipError, resolveRelationship, type RelationshipScope } from '../relationships.js';
import { tableObjectContext, tableObjectInconsistency, unresolvable, type TableObjectRef } from './objects.js';
import type { Inconsistency, RelationshipKind, ResolvedSource, ResolvedTable } from './types.js';

const LISTS = { object: 'object_relationships', array: 'array_relationships' } as const;

export function resolveRelationships(source: ResolvedSource): Inconsistency[] {
  const out: Inconsistency[] = [];
  for (const table of source.tables.values()) {
    const scope: RelationshipScope = { source: source.name, table: table.catalog, tracked: (t) => source.tables.get(qualifiedKey(t))?.catalog };
    for (const kind of ['object', 'array'] as const) {
      for (const stored of table.entry[LISTS[kind]] ?? []) {
        const problem = addRelationship(table, kind, stored, scope);
        if (problem) out.push(problem);
      }
    }
  }
  return out;
}

function addRelationship(table: ResolvedTable, kind: RelationshipKind, stored: TableObjectRef['stored'], scope: RelationshipScope): Inconsistency | null {
  const name = String(stored.name);
  const ref: TableObjectRef = { source: scope.source, table: table.name, list: LISTS[kind], type: `${kind}_relation`, name, stored };
  // A name stored before names were checked (an older store row) makes the relationship inconsistent, never the schema broken.
  if (!isGraphQLName(name)) return tableObjectInconsistency(ref, `${tableObjectContext(table.name, 'relationship', name)}${JSON.stringify(name)} is not a valid GraphQL name`);
  if (table.columns.has(name)) return tableObjectInconsistency(ref, 'field definition conflicts with postgres column');
  if (table.relationships.has(name)) return tableObjectInconsistency(ref, `conflicting definitions for field ${JSON.stringify(name)}`);
  try {
    const relationship = resolveRelationship(stored, kind, scope);
    const refusal = distributionRefusal(table.catalog, scope.tracked(relationship.target)!, kind, relationship.mapping);
    if (refusal) return tableObjectInconsistency(ref, tableObjectContext(table.name, 'relationship', name) + refusal);
    table.relationships.set(name, relationship);
    return null;
  } catch (e) {
    return tableObjectInconsistency(ref, tableObjectContext(table.name, 'relationship', name) + unresolvable(e, RelationshipError));
  }
}
