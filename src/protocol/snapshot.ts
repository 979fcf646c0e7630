/**
 * The immutable, versioned view of the metadata that the metadata actor publishes after
 * every change: metadata + what each source looks like + what is inconsistent.
 *
 * It travels as updates (`PublishedSnapshot.update`, lines of JSON): the whole snapshot, or what
 * changed since the previous one (the document's parts a change touched, document-parts.ts;
 * the catalogs only when they changed). The front thread reads the small header beside it and
 * never decodes an update; the readers that need the whole snapshot (the schema builder) apply
 * the updates in order with `SnapshotReader`, which keeps every unchanged part the same
 * (frozen) object, so that what they derive from it can be kept per part too. At 5,000 tables
 * × 11 roles the whole is 40 MiB and a permission change's update a few KiB.
 */
import type { QueryTagsConfig } from '../metadata/query-tags.js';
import { setImmediate } from 'node:timers/promises';
import type { IntrospectionQuery } from 'graphql';
import type { Capabilities } from '../backends/faces/admin.js';
import type { DatabaseCatalog } from '../catalog/types.js';
import type { RemoteSchemaMetadata } from '../metadata/remote-schemas.js';
import type { MetadataChanges } from '../metadata/changes.js';
import { parseTableEntry, tableEntryKey, tableEntryText, type DocumentDiff } from '../metadata/document-parts.js';
import { shareEqualPermissions } from '../metadata/equal-permissions.js';
import type { TlsAllowEntry } from '../metadata/tls-allowlist.js';
import type { TracesExport } from '../metadata/opentelemetry.js';
import type { ApiLimits } from '../metadata/api-limits.js';
import type { EventTriggerView } from '../metadata/event-triggers.js';
import type { CronTriggerView } from '../metadata/scheduled-triggers.js';
import type { AsyncActionView } from '../metadata/actions.js';
import type { BackendKind, InconsistentObject, Metadata, SourceMetadata, TableMetadata } from '../metadata/types.js';
import type { JsonObject } from '../util/decode.js';
import { deepFreeze } from '../util/draft.js';
import { sameJson } from '../util/same-json.js';
import type { RestRoute } from '../metadata/rest-endpoints.js';

export interface SourceSnapshot {
  kind: string;
  /** Null when the source could not be reached (it is then listed as inconsistent). */
  introspection: DatabaseCatalog | null;
  /** Rows of the tracked enum tables (`is_enum`), by `schema.name`: they become GraphQL enum values. */
  enumValues?: Record<string, { value: string; comment: string | null }[]>;
  /** What the source's backend supports (the schema leaves out the rest); absent: everything. */
  capabilities?: Capabilities;
  /** Tables of this schema are named without it (the backend's `BackendProfile.defaultSchema`). */
  defaultSchema: string;
  /** The source prepares its statements (its backend reads its configuration): they are named when compiled. */
  preparesStatements?: true;
}

export interface MetadataSnapshot {
  /** The stored `resource_version`. */
  version: number;
  /** Unique per published snapshot (a reload may change the catalogs, not the version). */
  generation: number;
  metadata: Metadata;
  sources: Record<string, SourceSnapshot>;
  inconsistencies: InconsistentObject[];
  /** Each remote schema's introspection, by name (those that could be introspected). */
  remotes: Record<string, IntrospectionQuery>;
  /** Whether roles see remote schemas through their permissions (`--enable-remote-schema-permissions`). */
  remoteSchemaPermissions: boolean;
}

export interface PublishedSnapshot {
  version: number;
  generation: number;
  /** Null when `update` is the whole snapshot, else the generation it applies to (the previous one). */
  base: number | null;
  /** What changed since the previous snapshot: cached plans that read none of it stay valid. */
  changes: MetadataChanges;
  /** The sources whose catalog could be read, with their kind and configuration (the front thread's connection pools). */
  connected: { name: string; kind: BackendKind; configuration: JsonObject; queryTags?: QueryTagsConfig }[];
  /** The RESTified endpoints (`/api/rest/...`), each with its query's text. */
  restEndpoints: RestRoute[];
  /** The TLS allow-list (`network.tls_allowlist`): the front thread's outgoing HTTPS calls follow it. */
  tlsAllowlist: TlsAllowEntry[];
  /** The remote schemas as stored: the front thread forwards fields to them (remote/servers.ts). */
  remoteSchemas: RemoteSchemaMetadata[];
  /** The consistent event triggers, environment variables resolved (the trigger-delivery actor). */
  eventTriggers: EventTriggerView[];
  /** The cron triggers, environment variables resolved (the trigger-delivery actor). */
  cronTriggers: CronTriggerView[];
  /** The consistent asynchronous actions (the trigger-delivery actor processes their calls). */
  asyncActions: AsyncActionView[];
  /** Where spans go (`opentelemetry`, resolved), or null: not traced. Every thread that emits spans follows it. */
  opentelemetry: TracesExport | null;
  /** The limits on non-admin GraphQL requests (`api_limits`); absent: none, or disabled (the front thread checks nothing). */
  apiLimits?: ApiLimits;
  /**
   * The update as UTF-8 lines of JSON (`encodeSnapshotUpdate`), in shared memory: written once by the
   * metadata actor and read by the threads that follow snapshots, never copied on the way.
   */
  update: Uint8Array<SharedArrayBuffer>;
}

/** What follows the sources alone needs of a snapshot (connection pools, change capture: the multiplexer actors). */
export type SourcesView = Pick<PublishedSnapshot, 'connected' | 'changes'> & Partial<Pick<PublishedSnapshot, 'eventTriggers'>>;
/** What a multiplexer actor follows: the sources, and where its polls' spans go. */
export type MultiplexerView = SourcesView & Pick<PublishedSnapshot, 'opentelemetry'>;

/** What the trigger-delivery actor needs of a snapshot. */
export type EventsView = Pick<PublishedSnapshot, 'connected' | 'eventTriggers' | 'cronTriggers' | 'tlsAllowlist' | 'asyncActions' | 'opentelemetry'>;

/** One source's table entries in an update: how many entry lines of it follow the header (compare `SourceTablesChange`). */
type TablesHeader =
  | { source: string; kind: 'all'; entries: number }
  | { source: string; kind: 'some'; upserts: number; deletes: string[] }
  | { source: string; kind: 'gone' };

interface UpdateHeader {
  version: number;
  generation: number;
  base: number | null;
  /** The document's skeleton, when it changed (always in a whole snapshot). */
  document: Metadata | null;
  tables: TablesHeader[];
  /** The sources' catalogs are the line after the header: when they changed, and always in a whole snapshot. */
  sources: boolean;
  /** Names the sources' catalogs: the generation of the snapshot that published them first. */
  sourcesId: number;
  inconsistencies: InconsistentObject[];
  /** The remote schemas' introspections, when they changed (always in a whole snapshot). */
  remotes: Record<string, IntrospectionQuery> | null;
  remoteSchemaPermissions: boolean;
}

/** Bytes written between two turns of the event loop while an update is encoded. */
const BYTES_PER_TURN = 4 * 2 ** 20;

/**
 * An update is lines of JSON text (JSON.stringify never writes a line break): a header, the
 * sources' catalogs when they changed, then each table entry the header counts on a line of
 * its own, as the store keeps it (`tableEntryText`: a permission body several roles share is
 * written once). A reader parses one entry at a time, so the entries never become one string.
 *
 * It is written piece by piece into its shared buffer from the parts' texts (the entries' are
 * the stored ones, made once for both): joining the text first and then encoding it cost three copies of it in
 * fresh memory. A large one gives the event loop a turn every few MiB: the metadata actor
 * encodes while its store's statements are sent.
 */
export async function encodeSnapshotUpdate(parts: {
  version: number;
  generation: number;
  base: number | null;
  diff: DocumentDiff | null;
  sourcesJson: string | null;
  sourcesId: number;
  inconsistencies: InconsistentObject[];
  remotesJson: string | null;
  remoteSchemaPermissions: boolean;
}): Promise<Uint8Array<SharedArrayBuffer>> {
  const tables = (parts.diff?.tables ?? []).map((t): TablesHeader =>
    t.kind === 'all' ? { source: t.source, kind: 'all', entries: t.entries.length } : t.kind === 'some' ? { source: t.source, kind: 'some', upserts: t.upserts.length, deletes: t.deletes } : t,
  );
  const header =
    `{"version":${parts.version},"generation":${parts.generation},"base":${parts.base},"document":${parts.diff?.skeleton ?? 'null'},"tables":${JSON.stringify(tables)},` +
    `"sources":${parts.sourcesJson !== null},"sourcesId":${parts.sourcesId},"inconsistencies":${JSON.stringify(parts.inconsistencies)},"remotes":${parts.remotesJson ?? 'null'},"remoteSchemaPermissions":${parts.remoteSchemaPermissions}}`;
  const pieces: string[] = [header];
  if (parts.sourcesJson !== null) pieces.push('\n', parts.sourcesJson);
  // The line break a piece of its own: `'\n' + text` would copy each entry's text once more.
  for (const t of parts.diff?.tables ?? []) for (const e of t.kind === 'all' ? t.entries : t.kind === 'some' ? t.upserts : []) pieces.push('\n', tableEntryText(e));
  const bytes = new Uint8Array(new SharedArrayBuffer(pieces.reduce((n, p) => n + Buffer.byteLength(p), 0)));
  const out = Buffer.from(bytes.buffer);
  let offset = 0;
  let turn = BYTES_PER_TURN;
  for (const p of pieces) {
    offset += out.write(p, offset);
    if (offset < turn) continue;
    turn = offset + BYTES_PER_TURN;
    await setImmediate();
  }
  return bytes;
}

/** The lines of an update, read in order from its (shared, never written again) memory. */
class UpdateLines {
  private readonly text: Buffer;
  private at = 0;

  constructor(bytes: Uint8Array) {
    this.text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  next(): string {
    const end = this.end();
    const line = this.text.toString('utf8', this.at, end);
    this.at = end + 1;
    return line;
  }

  skip(): void {
    this.at = this.end() + 1;
  }

  private end(): number {
    const end = this.text.indexOf(10, this.at);
    return end < 0 ? this.text.length : end;
  }
}

interface ReaderState {
  snapshot: MetadataSnapshot;
  skeleton: Metadata;
  entries: Map<string, Map<string, TableMetadata>>;
  tables: Map<string, readonly TableMetadata[]>;
  sourcesId: number;
}

/** Follows the published snapshots by applying their updates in order. */
export class SnapshotReader {
  private state: ReaderState | null = null;
  /**
   * An update read ahead of its turn (`stage`) on the current state: applying it takes this
   * state as it is. Any update applied drops it, so it is never taken on another state.
   */
  private staged: ReaderState | null = null;

  get generation(): number | null {
    return this.state?.snapshot.generation ?? null;
  }

  get snapshot(): MetadataSnapshot {
    if (!this.state) throw new Error('no snapshot update applied yet');
    return this.state.snapshot;
  }

  apply(bytes: Uint8Array): MetadataSnapshot {
    const lines = new UpdateLines(bytes);
    const u = JSON.parse(lines.next()) as UpdateHeader;
    const staged = this.staged;
    this.staged = null;
    this.state = staged?.snapshot.generation === u.generation ? staged : this.read(u, lines);
    return this.state.snapshot;
  }

  /** Reads the update that comes next (a change being written) without applying it; `apply` takes it as read. */
  stage(bytes: Uint8Array): MetadataSnapshot {
    this.staged = null;
    const lines = new UpdateLines(bytes);
    this.staged = this.read(JSON.parse(lines.next()) as UpdateHeader, lines);
    return this.staged.snapshot;
  }

  unstage(): void {
    this.staged = null;
  }

  /** The state `u` makes of this one. */
  private read(u: UpdateHeader, lines: UpdateLines): ReaderState {
    const prev = u.base === null ? null : this.state;
    // What a whole update repeats of the last snapshot is kept as the same objects too: what was derived from it stays valid.
    const last = this.state;
    if (u.base !== null && prev?.snapshot.generation !== u.base) throw new Error(`snapshot update for generation ${u.base} cannot follow generation ${String(this.generation)}`);
    const skeleton = u.document ? deepFreeze(sharingSkeleton(last?.skeleton, u.document)) : prev?.skeleton;
    if (!skeleton) throw new Error('a whole snapshot update without its document');
    // The catalogs the last snapshot had are not read again (8 MiB at 5,000 tables).
    const kept = u.sources && last?.sourcesId === u.sourcesId;
    if (kept) lines.skip();
    const sources = kept ? last.snapshot.sources : u.sources ? (JSON.parse(lines.next()) as MetadataSnapshot['sources']) : prev!.snapshot.sources;
    const entries = new Map(prev?.entries);
    const tables = new Map(prev?.tables);
    for (const t of u.tables) {
      tables.delete(t.source);
      if (t.kind === 'gone') {
        entries.delete(t.source);
        continue;
      }
      // Map order is the document's: an upsert keeps an entry's place, a new key goes last (as in the store).
      const old = last?.entries.get(t.source);
      const m = t.kind === 'all' ? new Map<string, TableMetadata>() : new Map(old);
      if (t.kind === 'some') for (const key of t.deletes) m.delete(key);
      for (let n = t.kind === 'all' ? t.entries : t.upserts; n > 0; n--) {
        const e = parseTableEntry(lines.next());
        const key = tableEntryKey(e);
        shareEqualPermissions(e);
        m.set(key, deepFreeze(sharingWith(old?.get(key), e)));
      }
      entries.set(t.source, m);
    }
    const source = (s: SourceMetadata): SourceMetadata => {
      let list = tables.get(s.name);
      if (!list) tables.set(s.name, (list = Object.freeze([...(entries.get(s.name)?.values() ?? [])])));
      const before = prev?.snapshot.metadata.sources.find((x) => x.name === s.name);
      return before && skeleton === prev!.skeleton && before.tables === list ? before : Object.freeze({ ...s, tables: list as TableMetadata[] });
    };
    const metadata = Object.freeze({ ...skeleton, sources: Object.freeze(skeleton.sources.map(source)) as SourceMetadata[] });
    const remotes = u.remotes && last && sameJson(last.snapshot.remotes, u.remotes) ? last.snapshot.remotes : (u.remotes ?? prev?.snapshot.remotes ?? {});
    const snapshot: MetadataSnapshot = { version: u.version, generation: u.generation, metadata, sources, inconsistencies: u.inconsistencies, remotes, remoteSchemaPermissions: u.remoteSchemaPermissions };
    return { snapshot, skeleton, entries, tables, sourcesId: u.sourcesId };
  }
}

/**
 * A changed object (a table entry, a source) that keeps its previous version's parts where they are equal: what is
 * derived from an entry's parts (its resolved fields, resolve.ts) is kept while they are the same
 * objects, as it is on the metadata actor's side, where a change drafts over the entry.
 */
function sharingWith<T extends object>(previous: T | undefined, next: T): T {
  if (!previous) return next;
  const out = { ...next } as Record<string, unknown>;
  const before = previous as Record<string, unknown>;
  for (const k of Object.keys(out)) {
    const [a, b] = [before[k], out[k]];
    if (sameJson(a, b)) out[k] = a;
    else if (Array.isArray(a) && Array.isArray(b)) out[k] = sharingItems(a, b);
  }
  return out as T;
}

/**
 * A changed list (a table's permissions, say) keeping the previous list's items that are
 * equal, wherever they moved: a permission change of one role leaves every other role's
 * permission the same object (metadata/changes.ts tells the roles a change touched by identity).
 */
function sharingItems(previous: unknown[], next: unknown[]): unknown[] {
  const byText = new Map(previous.map((x) => [JSON.stringify(x), x]));
  return next.map((x) => byText.get(JSON.stringify(x)) ?? x);
}

/**
 * A whole update's skeleton keeping the previous one's parts where they are equal, each
 * source's settings included: what compares them by identity (a role's schema kept across a
 * permission change, plans kept across an unrelated one) sees through the periodic whole update.
 */
function sharingSkeleton(previous: Metadata | undefined, next: Metadata): Metadata {
  if (!previous) return next;
  const out = sharingWith(previous, next);
  if (out.sources === previous.sources) return out;
  return { ...out, sources: next.sources.map((s) => sharingWith(previous.sources.find((p) => p.name === s.name), s)) };
}

export type SnapshotListener<S = PublishedSnapshot> = (snapshot: S) => void;

/** What a consumer needs of a bus: the current snapshot (or the part of it it reads), then every new one. */
export interface Snapshots<S = PublishedSnapshot> {
  subscribe(listener: SnapshotListener<S>): () => void;
}
