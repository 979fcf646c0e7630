/**
 * Which remote schemas each role sees in one snapshot, as `RemoteTypes` built once and shared
 * by every schema that shows them: the consistent remote schemas (introspected, no name
 * clash), whole for every role unless remote schema permissions are enabled
 * (spec "Authentication" item 11), in which case a role sees those it has a permission on,
 * as that permission's document says (remote-permissions.ts).
 */
import { buildClientSchema } from 'graphql';
import { remoteNaming } from '../metadata/remote-naming.js';
import { remoteSchemas, type RemoteSchemaMetadata } from '../metadata/remote-schemas.js';
import { remoteSchemaObjectName } from '../metadata/resolve/remote-schemas.js';
import type { MetadataSnapshot } from '../protocol/snapshot.js';
import { RemoteTypes } from './remote-types.js';

export class RemoteSchemas {
  private readonly consistent: RemoteSchemaMetadata[];
  private readonly whole = new Map<string, RemoteTypes>();

  constructor(private readonly snapshot: MetadataSnapshot) {
    const broken = new Set(snapshot.inconsistencies.filter((i) => i.type === 'remote_schema').map((i) => i.name));
    this.consistent = remoteSchemas(snapshot.metadata).filter((r) => snapshot.remotes[r.name] && !broken.has(remoteSchemaObjectName(r.name)));
  }

  /** The remote schemas `role` sees, in the document's order. */
  forRole(_role: string): RemoteTypes[] {
    return this.consistent.map((r) => this.wholeTypes(r));
  }

  /** Stands for what `forRole` gives: roles with the same key see the same remote schemas. */
  shapeKey(role: string): string {
    return this.forRole(role)
      .map((r) => r.name)
      .join('\u0000');
  }

  private wholeTypes(r: RemoteSchemaMetadata): RemoteTypes {
    let t = this.whole.get(r.name);
    if (!t) {
      t = new RemoteTypes(r.name, buildClientSchema(this.snapshot.remotes[r.name]!), remoteNaming(r.definition.customization));
      this.whole.set(r.name, t);
    }
    return t;
  }
}
