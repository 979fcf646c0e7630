/**
 * The metadata actor's state and request handling. It is the single writer: every
 * change runs under the stored row's lock, is committed, and only then answered and
 * published as a new snapshot. Changes made by other instances are picked up by
 * polling the version row (and sooner through NOTIFY).
 */
import { restRoutes } from '../../metadata/rest-endpoints.js';
import { tlsAllowlist } from '../../metadata/tls-allowlist.js';
import pg from 'pg';
import { createHash } from 'node:crypto';
import type { Config } from '../../config/config.js';
import { lookupCommand, READ_ONLY, VERSIONED } from './commands/index.js';
import type { EnvelopeVersion } from './commands/manage.js';
import type { Inconsistency, SourceCatalog } from '../../metadata/resolve.js';
import { DocumentResolver } from './inconsistencies.js';
import type { Metadata } from '../../metadata/types.js';
import { ApiError, badRequest, conflict, parseFailed } from '../../errors/admin.js';
import type { AdminEndpoint, AdminResponse, HealthResponse } from '../../protocol/messages.js';
import { encodeSnapshotUpdate, type MetadataSnapshot, type PublishedSnapshot } from '../../protocol/snapshot.js';
import { arrayOf, int, ObjectReader, str, type Json } from '../../util/decode.js';
import { log } from '../../log.js';
import { jsonTextDepth, MAX_NESTING_DEPTH, tooDeepAt, tooDeepMessage } from '../../util/nesting.js';
import { dropTooDeepObjects } from '../../metadata/too-deep.js';
import { deepFreeze } from '../../util/draft.js';
import { EVERYTHING, metadataChanges } from '../../metadata/changes.js';
import { remoteSchemas } from '../../metadata/remote-schemas.js';
import { asyncActionViews } from '../../metadata/actions.js';
import { changesMostTables, diffDocuments } from '../../metadata/document-parts.js';
import { ChangeCaptureSync } from './change-capture.js';
import { cronTriggerViews } from '../../metadata/scheduled-triggers.js';
import { EventTriggerSync, eventTriggerViews } from './event-triggers.js';
import { SourceManager } from './sources.js';
import { RemoteManager } from './remotes.js';
import { MetadataStore, type StoredMetadata } from './store.js';
import { movedGenerations, NO_GENERATIONS } from './catalog-generations.js';
import { UnitOfWork } from './unit-of-work.js';
import { shareEqualPermissions } from '../../metadata/equal-permissions.js';
import { adminError, backendFor } from '../../backends/registry.js';

/** The `default` source as first boot stores it: its URL stays in the environment. */
export function initialMetadata(): Metadata {
  return {
    version: 3,
    sources: [
      {
        name: 'default',
        kind: 'postgres',
        tables: [],
        configuration: {
          connection_info: {
            database_url: { from_env: 'SERVICE_GRAPHQL_DATABASE_URL' },
            isolation_level: 'read-committed',
            pool_settings: { connection_lifetime: 600, idle_timeout: 180, max_connections: 50, retries: 1 },
            use_prepared_statements: true,
          },
        },
      },
    ],
  };
}

interface Envelope {
  type: string;
  args: unknown;
  version: EnvelopeVersion;
  resourceVersion: number | undefined;
}

function readEnvelope(v: unknown, path: string): Envelope {
  const r = ObjectReader.of(v, path);
  const type = r.required('type', str);
  const version = r.optional('version', (x, p) => {
    if (x !== 1 && x !== 2) throw parseFailed(`expected 1 or 2, encountered ${JSON.stringify(x)}`, p);
    return x;
  });
  return { type, args: r.value.args ?? {}, version, resourceVersion: r.optional('resource_version', int) };
}

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
interface PreparedSnapshot {
  stored: StoredMetadata;
  snapshot: PublishedSnapshot;
  published: PublishedBase;
  sinceWhole: SinceWhole;
}

/** How many updates a compiler thread may have to apply to catch up from a whole snapshot. */
const MAX_UPDATES_SINCE_WHOLE = 100;

export class MetadataService {
  private store!: MetadataStore;
  private readonly capture: ChangeCaptureSync;
  private readonly events = new EventTriggerSync();
  private readonly sources: SourceManager;
  private readonly remotes = new RemoteManager();
  /** Resolution of whole documents, with what it keeps between runs (every unit of work shares it). */
  private readonly resolver = new DocumentResolver();
  private retryTimer: NodeJS.Timeout | null = null;
  private stored!: StoredMetadata;
  private inconsistencies: Inconsistency[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  private poller: NodeJS.Timeout | null = null;
  /** The last generation given to a snapshot, published or not. */
  private generation = 0;
  /** A snapshot sent ahead of its publication (`stage`), until it is published or dropped. */
  private staged: number | null = null;
  private published: PublishedBase | null = null;
  /** The updates published since the last whole snapshot: a reader applies them all, so a whole one is sent again now and then. */
  private sinceWhole: SinceWhole = { updates: 0, bytes: 0, wholeBytes: 0 };

  constructor(
    private readonly config: Config,
    private readonly publish: (s: PublishedSnapshot) => void,
    /** The snapshot of a change being written, sent ahead (the schema builder takes it in meanwhile); null: it was dropped. */
    private readonly stage: (s: PublishedSnapshot | null) => void,
  ) {
    const capture = new ChangeCaptureSync(config.liveQueryChangeCapture);
    this.capture = capture;
    this.sources = new SourceManager(async (name, connection, m) => {
      await this.events.removed(name, connection, m).catch((e: unknown) => log.warn('the event triggers of a dropped source cannot be removed', { source: name, error: String(e) }));
      await capture.removed(name, connection, m);
    });
  }

  async boot(): Promise<void> {
    const pool = new pg.Pool({ connectionString: this.config.metadataDatabaseUrl, max: 4 });
    pool.on('error', () => {});
    this.store = new MetadataStore(pool);
    const stored = await this.store.init(initialMetadata);
    try {
      await this.adopt(stored, true);
    } catch (e) {
      // Never a crash loop on a stored document this engine cannot load (edited by hand, or
      // written by an older version): it is kept in the store until a change replaces it.
      log.error('the stored metadata cannot be loaded: an empty metadata is in effect until it is replaced', {
        resourceVersion: stored.version,
        error: e instanceof Error ? e.message : String(e),
        remedy: 'send a corrected document with replace_metadata (or clear_metadata); any metadata change replaces the stored document',
      });
      await this.adopt({ metadata: initialMetadata(), version: stored.version, inRows: false, catalogs: stored.catalogs }, true);
    }
    await this.store.listen(() => void this.serialised(() => this.syncFromStore()));
    this.poller = setInterval(() => void this.serialised(() => this.syncFromStore()), this.config.metadataPollMs);
    // An unreachable remote schema comes back by itself (docs/behaviour.md "Remote schemas").
    this.retryTimer = setInterval(() => void this.serialised(() => this.retryRemotes()), this.config.remoteSchemaRetryMs);
  }

  async shutdown(): Promise<void> {
    if (this.poller) clearInterval(this.poller);
    if (this.retryTimer) clearInterval(this.retryTimer);
    this.remotes.close();
    await this.queue.catch(() => {});
    await this.sources.close();
    await this.store.close();
  }

  /** One request at a time: the actor is the single writer. */
  private serialised<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => {});
    return next;
  }

  private async syncFromStore(): Promise<void> {
    try {
      const current = await this.store.changedSince(this.stored);
      if (current) await this.adopt(current, true);
    } catch (e) {
      log.warn('metadata store poll failed', { error: e instanceof Error ? e.message : String(e) });
    }
  }

  /** Introspects the unreachable remote schemas again; one that answers now is published consistent. */
  private async retryRemotes(): Promise<void> {
    if (!this.remotes.hasFailures()) return;
    if (await this.remotes.retry(this.stored.metadata)) await this.adopt(this.stored, false);
  }

  /**
   * Takes a stored state as current: connects its sources (`connect`: a state this actor did not
   * make, whose re-read catalogs it reads again), resolves it, publishes it.
   */
  private async adopt(stored: StoredMetadata, connect: boolean, inconsistencies?: Inconsistency[], prepared?: PreparedSnapshot | null): Promise<void> {
    // Only a document read from the store can hold what no request may (this actor's own are
    // checked at the edge and frozen): the walk is over the whole document.
    const tooDeep = Object.isFrozen(stored.metadata) ? [] : dropTooDeepObjects(stored.metadata);
    // The store still holds them: the next change writes the whole document.
    if (tooDeep.length > 0) stored.inRows = false;
    for (const path of tooDeep) {
      log.error('a stored metadata object is nested too deep to be served: it is left out of the metadata in effect', {
        resourceVersion: stored.version,
        path,
        remedy: 'the next metadata change stores the document without it; export_metadata shows what is in effect',
      });
    }
    if (connect) {
      // Another engine's change ran DDL or a reload: what it re-read is read here too, before this state is served.
      const reread = movedGenerations(this.stored?.catalogs ?? NO_GENERATIONS, stored.catalogs);
      await Promise.all([this.sources.sync(stored.metadata, reread.sources), this.remotes.sync(stored.metadata, reread.remoteSchemas)]);
    }
    const changed = this.stored?.version !== stored.version;
    // Frozen once: every later change drafts over it and shares what it does not touch.
    if (!Object.isFrozen(stored.metadata)) for (const s of stored.metadata.sources) s.tables.forEach(shareEqualPermissions);
    deepFreeze(stored.metadata);
    this.stored = stored;
    this.inconsistencies = inconsistencies ?? this.resolver.inconsistencies(stored.metadata, this.sources.catalogs(), this.remotes.states());
    // After the answer, in turn with the requests: installing triggers on thousands of newly
    // tracked tables takes the server a while (0.5 s at 5,000), and until they are there the
    // front thread polls those tables (the sync's notice tells its listeners when they are).
    const m = stored.metadata;
    await this.events.sync(m, (name) => this.sources.connection(name), this.sources.catalogs());
    void this.serialised(() => this.capture.sync(m, (name) => this.sources.connection(name), this.sources.catalogs()));
    // A snapshot made while the store wrote this state (mutate) is that of this state.
    this.publishSnapshot(prepared?.stored === stored ? prepared : await this.prepareSnapshot(stored, this.inconsistencies));
    if (changed) log.info('metadata version in effect', { resourceVersion: stored.version, inconsistentObjects: this.inconsistencies.length });
  }

  /**
   * A state as a snapshot, encoded once, with what changed since the last one published; it
   * changes nothing until `publishSnapshot`, so a snapshot made for a change that then fails
   * is dropped without trace.
   */
  private async prepareSnapshot(stored: StoredMetadata, inconsistencies: Inconsistency[]): Promise<PreparedSnapshot> {
    const sources: MetadataSnapshot['sources'] = {};
    for (const [name, c] of this.sources.catalogs()) {
      const meta = stored.metadata.sources.find((s) => s.name === name);
      const connection = this.sources.connection(name);
      const enumTables = (meta?.tables ?? []).filter((t) => t.is_enum).map((t) => t.table);
      const enumValues = connection && c.introspection && enumTables.length ? await connection.loadEnumValues(c.introspection, enumTables) : {};
      const backend = backendFor(meta?.kind ?? 'postgres');
      const capabilities = backend?.capabilities;
      const prepares = meta && backend?.usesPreparedStatements(meta.configuration);
      sources[name] = { kind: meta?.kind ?? 'postgres', introspection: c.introspection, enumValues, ...(capabilities ? { capabilities } : {}), ...(prepares ? { preparesStatements: true as const } : {}) };
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
      remoteSchemaPermissions: this.config.enableRemoteSchemaPermissions,
    });
    const snapshot: PublishedSnapshot = {
      version: stored.version,
      generation,
      base: whole ? null : before.generation,
      changes,
      connected: stored.metadata.sources.filter((s) => sources[s.name]?.introspection).map((s) => ({ name: s.name, kind: s.kind, configuration: s.configuration })),
      restEndpoints: restRoutes(stored.metadata),
      tlsAllowlist: tlsAllowlist(stored.metadata),
      remoteSchemas: remoteSchemas(stored.metadata),
      eventTriggers: eventTriggerViews(stored.metadata, inconsistencies),
      cronTriggers: cronTriggerViews(stored.metadata),
      asyncActions: asyncActionViews(stored.metadata, inconsistencies.map((i) => i.object)),
      update,
    };
    return {
      stored,
      snapshot,
      sinceWhole: whole ? { updates: 0, bytes: 0, wholeBytes: update.byteLength } : { updates: updates + 1, bytes: bytes + update.byteLength, wholeBytes },
      published: { generation, metadata: stored.metadata, catalogs, sourcesDigest, sourcesId, remotes: remotesJson },
    };
  }

  private publishSnapshot(p: PreparedSnapshot): void {
    if (this.staged === p.snapshot.generation) this.staged = null;
    this.sinceWhole = p.sinceWhole;
    this.published = p.published;
    this.publish(p.snapshot);
  }

  private readonly catalogQuery = (text: string, params: unknown[]) => this.store.query(text, params);

  /** A request's unit of work, from `state` (with the inconsistencies of the state in effect). */
  private unitOfWork(endpoint: AdminEndpoint, state: StoredMetadata): UnitOfWork {
    return new UnitOfWork({
      sources: this.sources,
      remotes: this.remotes,
      endpoint,
      metadata: state.metadata,
      inconsistencies: this.inconsistencies,
      resourceVersion: state.version,
      catalogQuery: this.catalogQuery,
      remoteSchemaPermissions: this.config.enableRemoteSchemaPermissions,
      resolver: this.resolver,
    });
  }

  async health(): Promise<HealthResponse> {
    try {
      await this.store.version();
      return { ok: true, message: 'OK' };
    } catch (e) {
      return { ok: false, message: `metadata store unreachable: ${e instanceof Error ? e.message : String(e)}` };
    }
  }

  async admin(endpoint: AdminEndpoint, body: Uint8Array): Promise<AdminResponse> {
    try {
      const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (e) {
        throw parseFailed(`invalid JSON in request body: ${e instanceof Error ? e.message : String(e)}`, '$');
      }
      const deep = jsonTextDepth(text) > MAX_NESTING_DEPTH ? tooDeepAt(parsed) : null;
      if (deep) throw parseFailed(tooDeepMessage, deep);
      const env = readEnvelope(parsed, '$');
      const response = await this.execute(endpoint, env);
      return { status: 200, body: JSON.stringify(response) };
    } catch (e) {
      const err = toApiError(e);
      return { status: err.status, body: JSON.stringify(err.body()) };
    }
  }

  private async execute(endpoint: AdminEndpoint, env: Envelope): Promise<Json> {
    if (env.type !== 'bulk') resolveCommand(endpoint, env);
    if (READ_ONLY.has(env.type) && env.resourceVersion === undefined) {
      // Reads see the state of this instance, which follows the store within one poll interval.
      return this.serialised(async () => {
        const uow = this.unitOfWork(endpoint, this.stored);
        return uow.apply(resolveCommand(endpoint, env), env.args, '$.args');
      });
    }
    return this.serialised(() => this.mutate(endpoint, env));
  }

  private async mutate(endpoint: AdminEndpoint, env: Envelope): Promise<Json> {
    let uow: UnitOfWork | null = null;
    try {
      // The snapshot of the new state is encoded while the server writes it, and staged: the schema
      // builder takes it in meanwhile (at 5,000 tables, for about as long as the write takes).
      // One that cannot be made (a source's enum values unreadable) is made again after the
      // commit, as it was before.
      const whileWriting = async (next: StoredMetadata) => {
        const prepared = await this.prepareSnapshot(next, (uow as UnitOfWork | null)!.inconsistencies).catch(() => null);
        if (prepared) {
          this.staged = prepared.snapshot.generation;
          this.stage(prepared.snapshot);
        }
        return prepared;
      };
      const { stored, result, prepared } = await this.store.locked(this.stored, async (current) => {
        // Another instance may have changed the metadata, or re-read a catalog, since we last looked.
        if (current !== this.stored) await this.adopt(current, true);
        if (env.resourceVersion !== undefined && env.resourceVersion !== current.version) {
          throw conflict(`metadata resource version referenced (${env.resourceVersion}) did not match current version (${current.version})`);
        }
        uow = this.unitOfWork(endpoint, current);
        const response = await runEnvelope(uow, endpoint, env, '$');
        await uow.commitSources();
        // Before the document is stored: a table kept locked by a client fails the request (409) instead of leaving a trigger uninstalled.
        await this.events.sync(uow.metadata, (name) => this.sources.connection(name), this.sources.catalogs(), uow.recreateEventTriggers, true);
        // The store writes what differs from the stored document, if anything, and which catalogs were re-read.
        return { next: uow.metadata === current.metadata ? null : uow.metadata, reread: uow.reread, result: response };
      }, whileWriting);
      const done = uow as UnitOfWork | null;
      try {
        await this.adopt(stored, false, done?.inconsistencies, prepared);
      } catch (e) {
        // Committed already: an error answer would claim otherwise. The previous snapshot stays in effect until the next change or reload.
        log.error('metadata change committed but not published', { resourceVersion: stored.version, error: e instanceof Error ? e.message : String(e) });
      }
      return result;
    } catch (e) {
      await (uow as UnitOfWork | null)?.rollback();
      // Pools opened for a rejected configuration are closed again.
      await this.sources.sync(this.stored.metadata).catch(() => {});
      // And what was introspected for a refused remote schema is forgotten.
      await this.remotes.sync(this.stored.metadata).catch(() => {});
      // And database triggers installed for a document not stored are made those of the stored one again.
      await this.events.sync(this.stored.metadata, (name) => this.sources.connection(name), this.sources.catalogs()).catch(() => {});
      throw e;
    } finally {
      // Staged and not published: the change failed, or was committed and could not be published.
      if (this.staged !== null) {
        this.staged = null;
        this.stage(null);
      }
    }
  }
}

function resolveCommand(endpoint: AdminEndpoint, env: Envelope) {
  // Only export/replace read `version`; elsewhere a valid one is ignored, like the well-known engine does.
  const command = lookupCommand(endpoint, env.type, VERSIONED.has(env.type) ? env.version : undefined);
  if (!command) throw badRequest('not-supported', `unknown operation type ${JSON.stringify(env.type)} for /${endpoint}`, '$.type');
  return command;
}

/** Runs one envelope (recursively for bulk) inside the unit of work. */
async function runEnvelope(uow: UnitOfWork, endpoint: AdminEndpoint, env: Envelope, path: string): Promise<Json> {
  if (env.type === 'bulk') {
    const items = arrayOf((v, p) => readEnvelope(v, p))(env.args, `${path}.args`);
    const out: Json[] = [];
    for (let i = 0; i < items.length; i++) out.push(await runEnvelope(uow, endpoint, items[i]!, `${path}.args[${i}]`));
    return out;
  }
  const argsPath = `${path}.args`;
  try {
    return await uow.apply(resolveCommand(endpoint, env), env.args, argsPath);
  } catch (e) {
    // The deprecated API names a badly formed argument without `args` (`$.name`), as the well-known engine does.
    if (endpoint === 'v1/query' && e instanceof ApiError && e.code === 'parse-failed' && e.path.startsWith(argsPath)) {
      throw new ApiError(e.status, e.code, e.message, path + e.path.slice(argsPath.length), e.internal);
    }
    throw e;
  }
}

function toApiError(e: unknown): ApiError {
  if (e instanceof ApiError) return e;
  const database = adminError(e);
  if (database) return database;
  const message = e instanceof Error ? e.message : String(e);
  log.error('unexpected error in metadata request', { error: message, stack: e instanceof Error ? e.stack : undefined });
  return new ApiError(500, 'unexpected', `unexpected error: ${message}`, '$');
}
