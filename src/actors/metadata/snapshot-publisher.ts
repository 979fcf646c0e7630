/**
 * The metadata actor's snapshots: a stored state as a snapshot for every thread, encoded once as
 * an update of the last one published (or whole, now and then and for big changes), with what
 * changed since it; staged while the store writes its change, then published.
 */
import type { QueryTagsConfig } from '../../metadata/query-tags.js';
import { createHash } from 'node:crypto';
import { asyncActionViews } from '../../metadata/actions.js';
import { EVERYTHING, metadataChanges } from '../../metadata/changes.js';
import { changesMostTables, diffDocuments } from '../../metadata/document-parts.js';
import type { Inconsistency, SourceCatalog } from '../../metadata/resolve.js';
import { remoteSchemas } from '../../metadata/remote-schemas.js';
import { restRoutes } from '../../metadata/rest-endpoints.js';
import { cronTriggerViews } from '../../metadata/scheduled-triggers.js';
import { tlsAllowlist } from '../../metadata/tls-allowlist.js';
import { tracesExport, type TracesExport } from '../../metadata/opentelemetry.js';
import { enforcedApiLimits, type ApiLimits } from '../../metadata/api-limits.js';
import { log } from '../../log.js';
import type { Metadata } from '../../metadata/types.js';
import { backendFor } from '../../backends/registry.js';
import { encodeSnapshotUpdate, type MetadataSnapshot, type PublishedSnapshot } from '../../protocol/snapshot.js';
import { eventTriggerViews } from './event-triggers.js';
import { entriesWith } from '../../metadata/entries-with.js';
import type { RemoteManager } from './remotes.js';
import type { SourceManager } from './sources.js';
import type { StoredMetadata } from '../../db/metadata-store.js';

/** What the next snapshot is compared with: the last published metadata, each source's catalog and enum values, the remote schemas' JSON. */
interface PublishedBase {
  generation: number;
  metadata: Metadata;
  catalogs: Map<string, { catalog: SourceCatalog; enumValues: string }>;
  /** The sources' JSON as last sent (its digest) and the generation that sent it first: a reader that has them does not read them again. */
  sourcesDigest: string;
  sourcesId: number;
  remotes: string;
}

interface SinceWhole {
  updates: number;
  bytes: number;
  wholeBytes: number;
}

/** A snapshot of a stored state, ready to publish, with what the actor keeps once it is. */
export interface PreparedSnapshot {
  stored: StoredMetadata;
  snapshot: PublishedSnapshot;
  published: PublishedBase;
  sinceWhole: SinceWhole;
}

/** How many updates a compiler thread may have to apply to catch up from a whole snapshot. */
const MAX_UPDATES_SINCE_WHOLE = 100;

export class SnapshotPublisher {
  private generation = 0;
  /** The generation of the snapshot sent ahead and not published yet, if any. */
  private staged: number | null = null;
  private published: PublishedBase | null = null;
  /** The updates published since the last whole snapshot: a reader applies them all, so a whole one is sent again now and then. */
  private sinceWhole: SinceWhole = { updates: 0, bytes: 0, wholeBytes: 0 };

  constructor(
    private readonly sources: SourceManager,
    private readonly remotes: RemoteManager,
    private readonly remoteSchemaPermissions: boolean,
    private readonly send: (s: PublishedSnapshot) => void,
    /** The snapshot of a change being written, sent ahead; null: it was dropped. */
    private readonly sendStaged: (s: PublishedSnapshot | null) => void,
  ) {}

  /**
   * A state as a snapshot, encoded once, with what changed since the last one published; it
   * changes nothing until `publish`, so a snapshot made for a change that then fails
   * is dropped without trace.
   */
  async prepare(stored: StoredMetadata, inconsistencies: Inconsistency[]): Promise<PreparedSnapshot> {
    const sources: MetadataSnapshot['sources'] = {};
    for (const [name, c] of this.sources.catalogs()) {
      const meta = stored.metadata.sources.find((s) => s.name === name);
      const connection = this.sources.connection(name);
      const enumTables = meta ? entriesWith(meta.tables, 'is_enum').map((i) => meta.tables[i]!.table) : [];
      const enumValues = connection && c.introspection && enumTables.length ? await connection.loadEnumValues(c.introspection, enumTables) : {};
      const backend = backendFor(meta?.kind ?? 'postgres');
      const capabilities = backend?.capabilities;
      const prepares = meta && backend?.usesPreparedStatements(meta.configuration);
      const defaultSchema = backend?.profile.defaultSchema ?? '';
      sources[name] = { kind: meta?.kind ?? 'postgres', introspection: c.introspection, enumValues, defaultSchema, ...(capabilities ? { capabilities } : {}), ...(prepares ? { preparesStatements: true as const } : {}) };
    }
    const catalogs = new Map([...this.sources.catalogs()].map(([name, catalog]) => [name, { catalog, enumValues: JSON.stringify(sources[name]?.enumValues) }]));
    const before = this.published;
    const catalogChanged = (name: string) => {
      const a = before?.catalogs.get(name);
      const b = catalogs.get(name);
      return !a || !b || a.catalog !== b.catalog || a.enumValues !== b.enumValues;
    };
    const remotes: MetadataSnapshot['remotes'] = {};
    for (const [name, r] of this.remotes.states()) if (r.introspection) remotes[name] = r.introspection;
    const remotesJson = JSON.stringify(remotes);
    const remotesChanged = before !== null && before.remotes !== remotesJson;
    // A remote schema's new introspection (or one that came back) may change any plan that forwards to it.
    const changes = remotesChanged ? EVERYTHING : metadataChanges(before?.metadata ?? null, stored.metadata, catalogChanged);
    // Unique per snapshot (one staged and dropped included), and growing across restarts of this actor.
    const generation = Math.max(this.generation + 1, Date.now());
    this.generation = generation;
    // The catalogs' JSON is the bulk of a snapshot after the document, and most changes leave it as it is.
    const sameCatalogs = before !== null && before.catalogs.size === catalogs.size && [...catalogs.keys()].every((n) => !catalogChanged(n));
    const { updates, bytes, wholeBytes } = this.sinceWhole;
    const due = before === null || updates >= MAX_UPDATES_SINCE_WHOLE || bytes > wholeBytes / 2;
    const patch = due ? null : diffDocuments(before.metadata, stored.metadata);
    // A change to most of the tables (replace_metadata) goes whole: as big, and it starts a new chain.
    const whole = due || changesMostTables(patch, stored.metadata);
    const sourcesJson = whole || !sameCatalogs ? JSON.stringify(sources) : null;
    const sourcesDigest = sourcesJson === null ? before!.sourcesDigest : createHash('sha1').update(sourcesJson).digest('base64');
    const sourcesId = before !== null && before.sourcesDigest === sourcesDigest ? before.sourcesId : generation;
    const update = await encodeSnapshotUpdate({
      version: stored.version,
      generation,
      base: whole ? null : before.generation,
      diff: whole ? diffDocuments(null, stored.metadata) : patch,
      sourcesJson,
      sourcesId,
      inconsistencies: inconsistencies.map((i) => i.object),
      remotesJson: whole || remotesChanged ? remotesJson : null,
      remoteSchemaPermissions: this.remoteSchemaPermissions,
    });
    const snapshot: PublishedSnapshot = {
      version: stored.version,
      generation,
      base: whole ? null : before.generation,
      changes,
      connected: stored.metadata.sources.filter((s) => sources[s.name]?.introspection).map((s) => ({ name: s.name, kind: s.kind, configuration: s.configuration, ...(s.query_tags ? { queryTags: s.query_tags as unknown as QueryTagsConfig } : {}) })),
      restEndpoints: restRoutes(stored.metadata),
      tlsAllowlist: tlsAllowlist(stored.metadata),
      remoteSchemas: remoteSchemas(stored.metadata),
      eventTriggers: eventTriggerViews(stored.metadata, inconsistencies),
      cronTriggers: cronTriggerViews(stored.metadata),
      asyncActions: asyncActionViews(stored.metadata, inconsistencies.map((i) => i.object)),
      opentelemetry: publishedTracesExport(stored.metadata),
      ...withApiLimits(stored.metadata),
      update,
    };
    return {
      stored,
      snapshot,
      sinceWhole: whole ? { updates: 0, bytes: 0, wholeBytes: update.byteLength } : { updates: updates + 1, bytes: bytes + update.byteLength, wholeBytes },
      published: { generation, metadata: stored.metadata, catalogs, sourcesDigest, sourcesId, remotes: remotesJson },
    };
  }

  /** Sends a change's snapshot ahead while the store writes it: the schema builder takes it in meanwhile. */
  stage(p: PreparedSnapshot): void {
    this.staged = p.snapshot.generation;
    this.sendStaged(p.snapshot);
  }

  /** Drops the staged snapshot, if any: its change failed, or was committed and could not be published. */
  unstage(): void {
    if (this.staged === null) return;
    this.staged = null;
    this.sendStaged(null);
  }

  /** Puts a prepared snapshot in effect: what the next one is compared with, and the consumers'. */
  publish(p: PreparedSnapshot): void {
    if (this.staged === p.snapshot.generation) this.staged = null;
    this.sinceWhole = p.sinceWhole;
    this.published = p.published;
    this.send(p.snapshot);
  }
}

/**
 * Where spans go, as the environment resolves the stored setting now: one the environment no
 * longer resolves (a variable gone since it was set, after a restart) traces nothing, and says why.
 */
function publishedTracesExport(m: Metadata): TracesExport | null {
  try {
    return tracesExport(m, process.env);
  } catch (e) {
    log.warn('OpenTelemetry export disabled: its settings do not resolve', { error: (e as Error).message });
    return null;
  }
}

const withApiLimits = (m: Metadata): { apiLimits?: ApiLimits } => {
  const apiLimits = enforcedApiLimits(m);
  return apiLimits ? { apiLimits } : {};
};
