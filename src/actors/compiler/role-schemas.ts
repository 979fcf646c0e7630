/**
 * Per-role schemas of the current snapshot, built lazily on first use of a role and
 * dropped when the snapshot changes (keyed by snapshot generation). The snapshot's
 * tracked tables and the types that do not depend on a role are built once and shared
 * by every role's schema; roles whose schemas come out the same keep one of them.
 */
import type { GraphQLSchema } from 'graphql';
import { compilePermissionFilter } from '../../compiler/permission-filter.js';
import { buildRoleSchema, type RoleSchema } from '../../schema/build.js';
import { buildRoleModel } from '../../schema/model.js';
import { sameSchema } from '../../schema/same-schema.js';
import { SharedTypes } from '../../schema/shared-types.js';
import { TrackedTables } from '../../schema/tracked-tables.js';
import type { MetadataSnapshot } from '../../protocol/snapshot.js';

interface Generation {
  generation: number;
  tracked: TrackedTables;
  shared: SharedTypes;
  schemas: Map<string, RoleSchema>;
}

/** The schema of a role built before that is the same as `schema`, else `schema`. */
function sameAsBuilt(schema: GraphQLSchema, built: Iterable<RoleSchema>): GraphQLSchema {
  for (const other of new Set([...built].map((rs) => rs.schema))) if (sameSchema(other, schema)) return other;
  return schema;
}

export class RoleSchemas {
  private current: Generation | null = null;

  use(generation: number, load: () => MetadataSnapshot): MetadataSnapshot {
    if (this.current?.generation !== generation) {
      const tracked = new TrackedTables(load());
      this.current = { generation, tracked, shared: new SharedTypes(tracked), schemas: new Map() };
    }
    return this.current.tracked.snapshot;
  }

  get(role: string, backendOnly: boolean): RoleSchema {
    const { tracked, shared, schemas } = this.current!;
    const key = backendOnly ? `${role}\u0000backend_only` : role;
    let rs = schemas.get(key);
    if (!rs) {
      const snapshot = tracked.snapshot;
      rs = buildRoleSchema(buildRoleModel(tracked, role, (filter, table) => compilePermissionFilter(snapshot, table, filter), backendOnly), shared);
      rs = { ...rs, schema: sameAsBuilt(rs.schema, schemas.values()) };
      schemas.set(key, rs);
    }
    return rs;
  }
}
