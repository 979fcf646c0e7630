/**
 * Per-role schemas of the current snapshot, built lazily on first use of a role (keyed by
 * snapshot generation). The snapshot is resolved once (the metadata layer's resolution, the
 * only one); its tracked tables and the types that do not depend on a role are built once and
 * shared by every role's schema; roles with the same permissions share one role model
 * (model.ts), and roles whose schemas have the same shape share one schema, built once
 * (schema-shape.ts). A new snapshot that changed permissions only keeps the built
 * schemas by shape: a role whose shape the change left as it was gets the same schema again,
 * and a role whose permissions it did not touch keeps its schema and role model whole (at
 * 5,000 tables its model and shape cost 0.3-0.5 s to make again).
 */
import { metadataChanges, onlyPermissionsChanged } from '../../metadata/changes.js';
import type { Metadata } from '../../metadata/types.js';
import { resolveMetadata } from '../../metadata/resolve.js';
import { ResolveMemo } from '../../metadata/resolve/memo.js';
import type { RoleSchema } from '../../schema/build.js';
import { RoleModels } from '../../schema/role-models.js';
import { roleSchemaInputs } from '../../schema/role-schema.js';
import { SharedTypes } from '../../schema/shared-types.js';
import { TrackedTables } from '../../schema/tracked-tables.js';
import type { MetadataSnapshot } from '../../protocol/snapshot.js';
import { RemoteSchemas } from '../../schema/remote-schemas.js';
import { sameJson } from '../../util/same-json.js';

const remoteInconsistencies = (s: MetadataSnapshot) => s.inconsistencies.filter((i) => i.type === 'remote_schema').map((i) => i.name);

interface Generation {
  generation: number;
  snapshot: MetadataSnapshot;
  tracked: TrackedTables;
  shared: SharedTypes;
  remotes: RemoteSchemas;
  models: RoleModels;
  schemas: Map<string, RoleSchema>;
  /** Built schemas by shape. */
  shapes: Map<string, RoleSchema>;
  /**
   * A schema built while there was none to share with, its shape not made yet: the first role
   * after a replace is answered without walking its model for a key (60 ms at 5,000 tables);
   * the second role's request makes it (`shaped`).
   */
  unshaped: { shape: () => string; rs: RoleSchema } | null;
}

/** `previous`: the tables of the snapshot in use, which the new one's start from. */
function resolveSnapshot(snapshot: MetadataSnapshot, memo: ResolveMemo, previous: TrackedTables | null): TrackedTables {
  const catalogs = new Map(Object.entries(snapshot.sources).map(([name, s]) => [name, { introspection: s.introspection, error: null }]));
  return new TrackedTables(snapshot, resolveMetadata(snapshot.metadata, catalogs, memo), previous);
}

/** The roles whose permissions differ, with the inherited roles built on them; null: any role's may. */
function changedRoles(before: Metadata, after: Metadata): Set<string> | null {
  const changes = metadataChanges(before, after, () => false);
  if (changes.everything || changes.sources.length > 0) return null;
  const roles = new Set<string>();
  for (const t of changes.tables) {
    if (!t.roles) return null;
    for (const r of t.roles) roles.add(r);
  }
  return roles;
}

/** How many built schemas (the latest) a permission change keeps. */
const KEPT_SHAPES = 32;

export class RoleSchemas {
  private current: Generation | null = null;
  /** A staged snapshot's generation, made from the current one ahead of its publication. */
  private staged: Generation | null = null;
  /** What this thread's resolutions keep for the next (metadata/resolve/memo.ts). */
  private readonly memo = new ResolveMemo();

  /** `load` gives the generation's snapshot: a staged one is taken as it was made if it is that snapshot. */
  use(generation: number, load: () => MetadataSnapshot): TrackedTables {
    if (this.current?.generation !== generation) {
      const snapshot = load();
      const staged = this.staged;
      this.staged = null;
      this.current = staged?.generation === generation && staged.snapshot === snapshot ? staged : this.next(generation, snapshot);
    }
    return this.current.tracked;
  }

  stage(snapshot: MetadataSnapshot): void {
    // The one staged before is let go before this one is made.
    this.staged = null;
    this.staged = this.next(snapshot.generation, snapshot);
  }

  unstage(): void {
    this.staged = null;
  }

  private next(generation: number, snapshot: MetadataSnapshot): Generation {
    const tracked = resolveSnapshot(snapshot, this.memo, this.current?.tracked ?? null);
    const before = this.current;
    // Remote schemas: kept while their introspections and inconsistencies are as they were.
    const sameRemotes = before && before.snapshot.remotes === snapshot.remotes && sameJson(remoteInconsistencies(before.snapshot), remoteInconsistencies(snapshot));
    if (before && sameRemotes && before.snapshot.sources === snapshot.sources && onlyPermissionsChanged(before.snapshot.metadata, snapshot.metadata)) {
      // The roles whose permissions the change left as they were (inherited ones included) keep their schemas whole.
      const changed = changedRoles(before.snapshot.metadata, snapshot.metadata);
      const kept = changed ? [...before.schemas].filter(([key]) => !changed.has(key.split('\u0000')[0]!)) : [];
      const shapes = new Map([...before.shapes].slice(-KEPT_SHAPES));
      return { generation, snapshot, tracked, shared: before.shared, remotes: new RemoteSchemas(snapshot, this.memo), models: new RoleModels(tracked), schemas: new Map(kept), shapes, unshaped: before.unshaped };
    }
    return { generation, snapshot, tracked, shared: new SharedTypes(tracked), remotes: new RemoteSchemas(snapshot, this.memo), models: new RoleModels(tracked), schemas: new Map(), shapes: new Map(), unshaped: null };
  }

  get(role: string, backendOnly: boolean): RoleSchema {
    const current = this.current!;
    const { tracked, shared, remotes, models, schemas, shapes } = current;
    const key = backendOnly ? `${role}\u0000backend_only` : role;
    let rs = schemas.get(key);
    if (!rs) {
      const model = models.get(role, backendOnly);
      const inputs = roleSchemaInputs(current.snapshot, tracked, remotes, model, role);
      if (shapes.size === 0 && current.unshaped === null) {
        rs = inputs.build(shared);
        current.unshaped = { shape: inputs.shape, rs };
      } else {
        shaped(current);
        const shape = inputs.shape();
        const same = shapes.get(shape);
        // The field table is shared too: the compiler takes each field's table from the role's own model.
        rs = same ? { role, schema: same.schema, fields: same.fields, model } : inputs.build(shared);
        if (!same) shapes.set(shape, rs);
      }
      schemas.set(key, rs);
    }
    return rs;
  }
}

/** The generation's schemas by shape, the one built without its shape included. */
function shaped(g: Generation): void {
  if (g.unshaped === null) return;
  g.shapes.set(g.unshaped.shape(), g.unshaped.rs);
  g.unshaped = null;
}
