/**
 * The immutable, versioned view of the metadata that the metadata actor publishes
 * after every change: metadata + what each source looks like + what is inconsistent.
 */
import type { PgIntrospection } from '../backends/pg/catalog.js';
import type { MetadataChanges } from '../metadata/changes.js';
import type { InconsistentObject, Metadata } from '../metadata/types.js';

export interface SourceSnapshot {
  kind: string;
  /** Null when the source could not be reached (it is then listed as inconsistent). */
  introspection: PgIntrospection | null;
  /** Rows of the tracked enum tables (`is_enum`), by `schema.name`: they become GraphQL enum values. */
  enumValues?: Record<string, { value: string; comment: string | null }[]>;
}

export interface MetadataSnapshot {
  /** The stored `resource_version`. */
  version: number;
  /** Unique per published snapshot (a reload may change the catalogs, not the version): plan caches key on it. */
  generation: number;
  metadata: Metadata;
  sources: Record<string, SourceSnapshot>;
  inconsistencies: InconsistentObject[];
  /** What changed since the previous snapshot: cached plans that read none of it stay valid. */
  changes: MetadataChanges;
}
