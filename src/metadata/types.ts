/**
 * The stored metadata document: the shape `export_metadata` returns (version 3 of
 * the well-known engine's format). Objects are kept as plain JSON; each command's
 * validator decides what goes in.
 */
import type { Json, JsonObject } from '../util/decode.js';
import type { QualifiedName } from '../catalog/types.js';

export type BackendKind = 'postgres' | 'citus' | 'mssql' | 'bigquery';

export interface Metadata {
  version: 3;
  sources: SourceMetadata[];
  /** Every other top-level section (remote_schemas, actions, inherited_roles, ...), kept as given. */
  [section: string]: Json | SourceMetadata[] | undefined;
}

export interface SourceMetadata {
  name: string;
  kind: BackendKind;
  tables: TableMetadata[];
  functions?: JsonObject[];
  configuration: JsonObject;
  customization?: JsonObject;
  [key: string]: Json | TableMetadata[] | undefined;
}

export interface TableMetadata {
  table: QualifiedName;
  is_enum?: boolean;
  configuration?: JsonObject;
  apollo_federation_config?: JsonObject;
  object_relationships?: JsonObject[];
  array_relationships?: JsonObject[];
  computed_fields?: JsonObject[];
  remote_relationships?: JsonObject[];
  insert_permissions?: JsonObject[];
  select_permissions?: JsonObject[];
  update_permissions?: JsonObject[];
  delete_permissions?: JsonObject[];
  event_triggers?: JsonObject[];
  [key: string]: Json | QualifiedName | undefined;
}

/** A metadata object that could not be resolved against the databases (spec "Inconsistent object"). */
export interface InconsistentObject {
  type: string;
  name: string;
  reason: string;
  /** `definition` (the object as stored); a conflicting inherited permission has `entity` instead. */
  [key: string]: Json;
}

export const emptyMetadata = (): Metadata => ({ version: 3, sources: [] });
