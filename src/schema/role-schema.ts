/**
 * What a role's schema is made of beside its model: the remote schemas and the actions the
 * role sees. Its shape key says when two roles can share one schema (schema-shape.ts); `build`
 * makes it. The schema builder keeps schemas by that key; the metadata actor builds the admin
 * schema with it to validate the collections' queries, so both see the same fields.
 */
import type { MetadataSnapshot } from '../protocol/snapshot.js';
import { actionsShapeKey, visibleActions, type ActionsView } from './actions.js';
import { buildRoleSchema, type RoleSchema } from './build.js';
import type { RoleModel } from './model.js';
import type { RemoteSchemas } from './remote-schemas.js';
import { schemaShape } from './schema-shape.js';
import type { SharedTypes } from './shared-types.js';
import type { TrackedTables } from './tracked-tables.js';

export interface RoleSchemaInputs {
  /** Made on demand: it walks the whole model (25 ms at 5,000 tables), which only sharing needs. */
  shape(): string;
  build(shared: SharedTypes): RoleSchema;
}

export function roleSchemaInputs(snapshot: MetadataSnapshot, tracked: TrackedTables, remotes: RemoteSchemas, model: RoleModel, role: string): RoleSchemaInputs {
  const view: ActionsView = { metadata: snapshot.metadata, inconsistencies: snapshot.inconsistencies, parents: (r) => tracked.resolved.inheritedRoles.get(r) };
  const actions = visibleActions(view, role);
  return {
    shape: () => `${schemaShape(model)}\u0001${remotes.shapeKey(role)}\u0001${actionsShapeKey(actions)}`,
    build: (shared) => buildRoleSchema(model, shared, remotes.forRole(role), remotes.joinsFor(role), { view, list: actions }),
  };
}
