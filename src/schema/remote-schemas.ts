/**
 * Which remote schemas each role sees in one snapshot, as `RemoteTypes` built once and shared
 * by every schema that shows them: the consistent remote schemas (introspected, no name
 * clash), whole for every role unless remote schema permissions are enabled
 * (spec "Authentication" item 11); then admin sees them whole and another role those it has a
 * permission on (its own, or inherited: metadata/resolve/remote-permissions.ts), as that
 * permission's document says, its presets left out of the schema and kept for the compiler.
 */
import { buildClientSchema, isInputObjectType, isInterfaceType, isObjectType, type GraphQLInputType, type GraphQLSchema } from 'graphql';
import { remoteNaming } from '../metadata/remote-naming.js';
import type { CheckedPermission, PermissionPreset } from '../metadata/remote-permissions.js';
import { remoteSchemas, type RemoteSchemaMetadata } from '../metadata/remote-schemas.js';
import { checkedPermission, effectiveRemotePermissions, type EffectivePermission } from '../metadata/resolve/remote-permissions.js';
import type { ResolveMemo } from '../metadata/resolve/memo.js';
import { remoteSchemaObjectName } from '../metadata/resolve/remote-schemas.js';
import type { MetadataSnapshot } from '../protocol/snapshot.js';
import { RemoteTypes, type Preset } from './remote-types.js';
import { remoteJoins, sourceJoins, type TableJoins } from './remote-relationships.js';
import type { TableIdentity } from './model.js';
import { remoteRelationshipObjectName } from '../metadata/resolve/remote-relationships.js';

interface Consistent {
  rs: RemoteSchemaMetadata;
  permissions: Map<string, EffectivePermission>;
}

export class RemoteSchemas {
  private readonly consistent: Consistent[];
  /** By remote name, then by permission document ('' for the whole remote). */
  private readonly built = new Map<string, Map<string, RemoteTypes>>();

  private readonly brokenJoins: Set<string>;

  constructor(
    private readonly snapshot: MetadataSnapshot,
    private readonly memo: ResolveMemo,
  ) {
    this.brokenJoins = new Set(snapshot.inconsistencies.filter((i) => i.type === 'remote_relationship').map((i) => i.name));
    const broken = new Set(snapshot.inconsistencies.filter((i) => i.type === 'remote_schema').map((i) => i.name));
    this.consistent = remoteSchemas(snapshot.metadata)
      .filter((r) => snapshot.remotes[r.name] && !broken.has(remoteSchemaObjectName(r.name)))
      .map((rs) => ({ rs, permissions: snapshot.remoteSchemaPermissions ? effectiveRemotePermissions(snapshot.metadata, rs) : new Map() }));
  }

  /** The document `role` sees each remote schema through ('' : whole), for those it sees. */
  private views(role: string): { rs: RemoteSchemaMetadata; document: string }[] {
    const out: { rs: RemoteSchemaMetadata; document: string }[] = [];
    for (const { rs, permissions } of this.consistent) {
      if (!this.snapshot.remoteSchemaPermissions || role === 'admin') {
        out.push({ rs, document: '' });
        continue;
      }
      const p = permissions.get(role);
      if (p && 'schema' in p && typeof checkedPermission(this.snapshot.remotes[rs.name]!, p.schema, this.memo) !== 'string') out.push({ rs, document: p.schema });
    }
    return out;
  }

  /** The remote schemas `role` sees, in the document's order. */
  forRole(role: string): RemoteTypes[] {
    return this.views(role).map(({ rs, document }) => this.types(rs, document));
  }

  /** The remote relationships of a table `role` can use (given its remote schemas). */
  joinsFor(role: string): (t: TableIdentity) => TableJoins {
    const remotes = this.forRole(role);
    const broken = (table: TableIdentity, name: string) => this.brokenJoins.has(remoteRelationshipObjectName(name, table.meta.table, table.source.name));
    return (t) => ({ remote: remoteJoins(t, remotes, broken), source: sourceJoins(t, broken) });
  }

  /** Stands for what `forRole` gives: roles with the same key see the same remote schemas. */
  shapeKey(role: string): string {
    return JSON.stringify(this.views(role).map(({ rs, document }) => [rs.name, document]));
  }

  private types(rs: RemoteSchemaMetadata, document: string): RemoteTypes {
    const byDocument = this.built.get(rs.name) ?? this.built.set(rs.name, new Map()).get(rs.name)!;
    let t = byDocument.get(document);
    if (!t) {
      const intro = this.snapshot.remotes[rs.name]!;
      const naming = remoteNaming(rs.definition.customization);
      if (document === '') t = new RemoteTypes(rs.name, buildClientSchema(intro), naming);
      else {
        const checked = checkedPermission(intro, document, this.memo) as CheckedPermission;
        t = new RemoteTypes(rs.name, checked.schema, naming, presetsOf(checked), inputPresetsOf(checked));
      }
      byDocument.set(document, t);
    }
    return t;
  }
}

function withTypes(presets: PermissionPreset[] | undefined, typeOf: (name: string) => GraphQLInputType | undefined): Preset[] {
  return (presets ?? []).map((p) => ({ ...p, inputType: typeOf(p.name)! }));
}

function presetsOf(checked: CheckedPermission) {
  const schema: GraphQLSchema = checked.schema;
  return (parent: string, field: string): Preset[] =>
    withTypes(checked.argumentPresets.get(`${parent}.${field}`), (arg) => {
      const t = schema.getType(parent);
      return isObjectType(t) || isInterfaceType(t) ? t.getFields()[field]?.args.find((a) => a.name === arg)?.type : undefined;
    });
}

function inputPresetsOf(checked: CheckedPermission) {
  return (inputType: string): Preset[] =>
    withTypes(checked.inputPresets.get(inputType), (name) => {
      const t = checked.schema.getType(inputType);
      return isInputObjectType(t) ? t.getFields()[name]?.type : undefined;
    });
}
