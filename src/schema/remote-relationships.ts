/**
 * A table's remote relationships as fields of its object type, for one role (spec "Remote
 * relationship"; "Remote schema" permission rule 5): a relationship is a field only when it is
 * consistent and the role's view of its remote schema has every field of `remote_field` (so
 * its output and input types too). The field's arguments are the last field's, less those the
 * relationship sets (rule 6: its values win over the permission's presets).
 */
import { getNamedType, GraphQLNonNull, type GraphQLOutputType } from 'graphql';
import { remoteFieldChain, storedToRemoteSchema, storedToSource } from '../metadata/remote-relationships.js';
import type { JsonObject } from '../util/decode.js';
import { tableKey } from '../catalog/types.js';
import type { TableIdentity } from './model.js';
import type { RemoteField, RemoteTypes } from './remote-types.js';

export interface RemoteJoin {
  name: string;
  remote: RemoteTypes;
  /** The row's columns the arguments read (`$column`). */
  lhs: string[];
  /** Each field of `remote_field`: its customized name under its customized parent, and the arguments the relationship sets. */
  chain: { parent: string; name: string; field: RemoteField; arguments: JsonObject }[];
  type: GraphQLOutputType;
}

/** A `to_source` relationship: rows of a table (of any source) whose columns equal the row's. */
export interface SourceJoin {
  name: string;
  /** The target table's key in the role model (`tableKey`). */
  targetKey: string;
  many: boolean;
  /** [column of the row, column of the target]. */
  mapping: [string, string][];
}

/** A table's remote relationships for one role: to remote schemas and to tables of sources. */
export interface TableJoins {
  remote: RemoteJoin[];
  source: SourceJoin[];
}

export function sourceJoins(t: TableIdentity, inconsistent: (t: TableIdentity, name: string) => boolean): SourceJoin[] {
  const out: SourceJoin[] = [];
  for (const rr of t.meta.remote_relationships ?? []) {
    const to = storedToSource(rr);
    if (!to || inconsistent(t, String(rr.name))) continue;
    out.push({ name: String(rr.name), targetKey: tableKey(to.source, to.table), many: to.relationship_type === 'array', mapping: Object.entries(to.field_mapping) });
  }
  return out;
}

/** `inconsistent`: the snapshot's inconsistent relationships, by table identity and name. */
export function remoteJoins(t: TableIdentity, remotes: readonly RemoteTypes[], inconsistent: (t: TableIdentity, name: string) => boolean): RemoteJoin[] {
  const out: RemoteJoin[] = [];
  for (const rr of t.meta.remote_relationships ?? []) {
    const to = storedToRemoteSchema(rr);
    const remote = to && remotes.find((r) => r.name === to.remote_schema);
    if (!to || !remote || inconsistent(t, String(rr.name))) continue;
    const chain: RemoteJoin['chain'] = [];
    let parent = remote.roots.query;
    let ok = true;
    for (const step of remoteFieldChain(to.remote_field, '$')) {
      const found = remote.fieldByOriginal(parent, step.field);
      if (!found) {
        ok = false;
        break;
      }
      chain.push({ parent, name: found.name, field: found.field, arguments: step.arguments });
      parent = getNamedType(found.field.type).name;
    }
    if (!ok) continue;
    const leaf = chain.at(-1)!.field.type;
    // Null for a row whose key is null.
    out.push({ name: String(rr.name), remote, lhs: to.lhs_fields, chain, type: leaf instanceof GraphQLNonNull ? leaf.ofType : leaf });
  }
  return out;
}
