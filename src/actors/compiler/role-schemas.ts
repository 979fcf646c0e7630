/**
 * Per-role schemas of the current snapshot, built lazily on first use of a role and
 * dropped when the snapshot changes (keyed by snapshot generation).
 */
import { compilePermissionFilter } from '../../compiler/permission-filter.js';
import { buildRoleSchema, type RoleSchema } from '../../schema/build.js';
import { buildRoleModel } from '../../schema/model.js';
import type { MetadataSnapshot } from '../../protocol/snapshot.js';

export class RoleSchemas {
  private generation = -1;
  private schemas = new Map<string, RoleSchema>();

  constructor(private snapshot: MetadataSnapshot | null = null) {}

  use(generation: number, load: () => MetadataSnapshot): MetadataSnapshot {
    if (generation !== this.generation || !this.snapshot) {
      this.snapshot = load();
      this.generation = generation;
      this.schemas = new Map();
    }
    return this.snapshot;
  }

  get(role: string, backendOnly: boolean): RoleSchema {
    const key = backendOnly ? `${role}\u0000backend_only` : role;
    let rs = this.schemas.get(key);
    if (!rs) {
      const snapshot = this.snapshot!;
      rs = buildRoleSchema(buildRoleModel(snapshot, role, (filter, table) => compilePermissionFilter(snapshot, table, filter), backendOnly));
      this.schemas.set(key, rs);
    }
    return rs;
  }
}
