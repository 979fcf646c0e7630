/**
 * The immutable, versioned view of the metadata that the metadata actor publishes after
 * every change: metadata + what each source looks like + what is inconsistent.
 *
 * It travels encoded (`PublishedSnapshot.encoded`: the `MetadataSnapshot` as UTF-8 JSON),
 * written once by the metadata actor from the document's stored JSON text and decoded only
 * where the whole of it is needed (the compiler threads). The front thread reads the small
 * header beside it and never decodes the document: at 5,000 tables × 11 roles it is 36 MiB.
 */
import type { PgIntrospection } from '../backends/pg/catalog.js';
import type { MetadataChanges } from '../metadata/changes.js';
import type { InconsistentObject, Metadata } from '../metadata/types.js';
import type { JsonObject } from '../util/decode.js';

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
  /** Unique per published snapshot (a reload may change the catalogs, not the version). */
  generation: number;
  metadata: Metadata;
  sources: Record<string, SourceSnapshot>;
  inconsistencies: InconsistentObject[];
}

export interface PublishedSnapshot {
  version: number;
  generation: number;
  /** What changed since the previous snapshot: cached plans that read none of it stay valid. */
  changes: MetadataChanges;
  /** The sources whose catalog could be read, with their configuration (the front thread's connection pools). */
  connected: { name: string; configuration: JsonObject }[];
  /** The `MetadataSnapshot` as UTF-8 JSON text. */
  encoded: Uint8Array;
}

/** The JSON text of a snapshot from the JSON texts of its parts (the document's is the stored one). */
export function encodeSnapshot(parts: { version: number; generation: number; metadataJson: string; sourcesJson: string; inconsistencies: InconsistentObject[] }): Uint8Array {
  const text = `{"version":${parts.version},"generation":${parts.generation},"metadata":${parts.metadataJson},"sources":${parts.sourcesJson},"inconsistencies":${JSON.stringify(parts.inconsistencies)}}`;
  // Bytes of its own (not a slice of Buffer's pool), so that they can be transferred to another thread.
  return new TextEncoder().encode(text);
}

export function decodeSnapshot(bytes: Uint8Array): MetadataSnapshot {
  return JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')) as MetadataSnapshot;
}
