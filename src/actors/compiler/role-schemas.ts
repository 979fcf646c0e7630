/**
 * Per-role schemas of the current snapshot, built lazily on first use of a role and
 * dropped when the snapshot changes (keyed by snapshot generation). The snapshot is
 * resolved once (the metadata layer's resolution, the only one); its tracked tables and the
 * types that do not depend on a role are built once and shared by every role's schema; roles
 * whose schemas come out the same keep one of them.
 */
import type { GraphQLSchema } from 'graphql';
import { resolveMetadata } from '../../metadata/resolve.js';
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

function resolveSnapshot(snapshot: MetadataSnapshot): TrackedTables {
  const catalogs = new Map(Object.entries(snapshot.sources).map(([name, s]) => [name, { introspection: s.introspection, error: null }]));
  return new TrackedTables(snapshot, resolveMetadata(snapshot.metadata, catalogs));
}

export class RoleSchemas {
  private current: Generation | null = null;

  use(generation: number, load: () => MetadataSnapshot): TrackedTables {
    if (this.current?.generation !== generation) {
      const tracked = resolveSnapshot(load());
      this.current = { generation, tracked, shared: new SharedTypes(tracked), schemas: new Map() };
    }
    return this.current.tracked;
  }

  get(role: string, backendOnly: boolean): RoleSchema {
    const { tracked, shared, schemas } = this.current!;
    const key = backendOnly ? `${role}\u0000backend_only` : role;
    let rs = schemas.get(key);
    if (!rs) {
      rs = buildRoleSchema(buildRoleModel(tracked, role, backendOnly), shared);
      rs = { ...rs, schema: sameAsBuilt(rs.schema, schemas.values()) };
      schemas.set(key, rs);
    }
    return rs;
  }
}
