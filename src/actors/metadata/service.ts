/**
 * The metadata actor's state and request handling. It is the single writer: every
 * change runs under the stored row's lock, is committed, and only then answered and
 * published as a new snapshot (snapshot-publisher.ts). Changes made by other instances are
 * picked up by polling the version row (and sooner through NOTIFY).
 */
import pg from 'pg';
import type { Config } from '../../config/config.js';
import { lookupCommand, READ_ONLY, unknownCommand, VERSIONED } from './commands/index.js';
import { DATA_OPERATIONS } from './commands/dml.js';
import type { EnvelopeVersion } from './commands/manage.js';
import type { Inconsistency } from '../../metadata/resolve.js';
import { DocumentResolver } from './document-resolver.js';
import { conflictMessage } from '../../metadata/resolve/root-fields.js';
import type { Metadata } from '../../metadata/types.js';
import { adminOnly, anchorAt, ApiError, conflict, parseFailed } from '../../errors/admin.js';
import { toAdminReply } from '../../errors/admin-reply.js';
import { adminRequestRole, type AdminEndpoint, type AdminResponse, type HealthResponse, type PgDumpResponse, type SourceHealth } from '../../protocol/messages.js';
import type { PublishedSnapshot } from '../../protocol/snapshot.js';
import { arrayOf, int, ObjectReader, str, type Json } from '../../util/decode.js';
import { logger } from '../../log.js';
import { MAX_NESTING_DEPTH, tooDeepAt, tooDeepMessage } from '../../util/nesting.js';
import { parseJsonLazily } from '../../util/lazy-json.js';
import { dropTooDeepObjects } from '../../metadata/too-deep.js';
import { deepFreeze } from '../../util/draft.js';
import { ChangeCaptureSync } from './change-capture.js';
import { EventTriggerSync } from './event-triggers.js';
import { SourceManager } from './sources.js';
import { sourcesHealth } from './source-health.js';
import { RemoteManager } from './remotes.js';
import { MetadataStore, type StoredMetadata } from '../../db/metadata-store.js';
import { SnapshotPublisher, type PreparedSnapshot } from './snapshot-publisher.js';
import { movedGenerations, NO_GENERATIONS } from '../../db/catalog-generations.js';
import { UnitOfWork } from './unit-of-work.js';
import { shareEqualPermissions } from '../../metadata/equal-permissions.js';
import { adminError } from '../../backends/registry.js';
import { pgDump } from './pg-dump.js';

const log = logger('metadata');

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

export class MetadataService {
  private store!: MetadataStore;
  private readonly capture: ChangeCaptureSync;
  private readonly events = new EventTriggerSync();
  private readonly sources: SourceManager;
  private readonly remotes = new RemoteManager();
  /** Resolution of whole documents, with what it keeps between runs (every unit of work shares it). */
  private readonly resolver = new DocumentResolver();
  private readonly snapshots: SnapshotPublisher;
  private retryTimer: NodeJS.Timeout | null = null;
  private stored!: StoredMetadata;
  private inconsistencies: Inconsistency[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  private poller: NodeJS.Timeout | null = null;

  constructor(
    private readonly config: Config,
    publish: (s: PublishedSnapshot) => void,
    /** The snapshot of a change being written, sent ahead (the schema builder takes it in meanwhile); null: it was dropped. */
    stage: (s: PublishedSnapshot | null) => void,
  ) {
    const capture = new ChangeCaptureSync(config.liveQueryChangeCapture);
    this.capture = capture;
    this.sources = new SourceManager(async (name, connection, m) => {
      await this.events.removed(name, connection, m).catch((e: unknown) => log.warn('the event triggers of a dropped source cannot be removed', { source: name, error: String(e) }));
      await capture.removed(name, connection, m);
    });
    this.snapshots = new SnapshotPublisher(this.sources, this.remotes, config.enableRemoteSchemaPermissions, publish, stage);
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
   * The inconsistencies of a state no request of this actor made (boot, another engine's). A
   * root field two objects define was taken before such changes were refused: the schema keeps
   * the later object's, and the next change may remove either (metadata/resolve/root-fields.ts).
   */
  private resolveStored(stored: StoredMetadata): Inconsistency[] {
    const { inconsistencies, conflicts } = this.resolver.resolve(stored.metadata, this.sources.catalogs(), this.remotes.states());
    if (conflicts.length > 0) {
      log.warn('the metadata in effect defines a root field twice: the schema serves one of the two objects', {
        resourceVersion: stored.version,
        conflict: conflictMessage(conflicts),
        remedy: 'rename or remove one of them; a change that leaves them is taken',
      });
    }
    return inconsistencies;
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
    this.inconsistencies = inconsistencies ?? this.resolveStored(stored);
    // After the answer, in turn with the requests: installing triggers on thousands of newly
    // tracked tables takes the server a while (0.5 s at 5,000), and until they are there the
    // front thread polls those tables (the sync's notice tells its listeners when they are).
    const m = stored.metadata;
    await this.events.sync(m, (name) => this.sources.connection(name), this.sources.catalogs());
    void this.serialised(() => this.capture.sync(m, (name) => this.sources.connection(name), this.sources.catalogs()));
    // A snapshot made while the store wrote this state (mutate) is that of this state.
    this.snapshots.publish(prepared?.stored === stored ? prepared : await this.snapshots.prepare(stored, this.inconsistencies));
    if (changed) log.info('metadata version in effect', { resourceVersion: stored.version, inconsistentObjects: this.inconsistencies.length });
  }

  private readonly catalogQuery = (text: string, params: unknown[]) => this.store.query(text, params);

  /** A request's unit of work, from `state` (with the inconsistencies of the state in effect), for the caller's `session`. */
  private unitOfWork(endpoint: AdminEndpoint, state: StoredMetadata, session: Record<string, string>): UnitOfWork {
    return new UnitOfWork({
      sources: this.sources,
      remotes: this.remotes,
      endpoint,
      session,
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
      return { ok: true, message: 'OK', inconsistent: this.inconsistencies.length > 0 };
    } catch (e) {
      return { ok: false, message: `metadata store unreachable: ${e instanceof Error ? e.message : String(e)}` };
    }
  }

  sourcesHealth(): Promise<Record<string, SourceHealth>> {
    return sourcesHealth(this.sources, this.stored.metadata);
  }

  /** `POST /v1alpha1/pg_dump`: a source's database as `pg_dump` writes it (`pg-dump.ts`). */
  pgDump(body: Uint8Array): Promise<PgDumpResponse> {
    return pgDump(this.stored.metadata, Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
  }

  async admin(endpoint: AdminEndpoint, body: Uint8Array, session: Record<string, string>): Promise<AdminResponse> {
    try {
      const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
      const lazy = parseJsonLazily(bytes, MAX_NESTING_DEPTH);
      const env = readEnvelope(lazy ? lazy.value : parsedWhole(bytes.toString('utf8')), '$');
      const response = await this.execute(endpoint, env, session);
      return { status: 200, body: JSON.stringify(response) };
    } catch (e) {
      return toAdminReply(e, { where: 'metadata request', databaseError: adminError, internal: true });
    }
  }

  private async execute(endpoint: AdminEndpoint, env: Envelope, session: Record<string, string>): Promise<Json> {
    if (adminRequestRole(session) !== 'admin' && !(endpoint === 'v1/query' && dataOnly(env, '$'))) throw adminOnly();
    if (env.type !== 'bulk') resolveCommand(endpoint, env, '$');
    if (READ_ONLY.has(env.type) && env.resourceVersion === undefined) {
      // Reads see the state of this instance, which follows the store within one poll interval.
      return this.serialised(async () => {
        const uow = this.unitOfWork(endpoint, this.stored, session);
        return uow.apply(resolveCommand(endpoint, env, '$'), env.args, '$.args');
      });
    }
    return this.serialised(() => this.mutate(endpoint, env, session));
  }

  private async mutate(endpoint: AdminEndpoint, env: Envelope, session: Record<string, string>): Promise<Json> {
    let uow: UnitOfWork | null = null;
    try {
      // The snapshot of the new state is encoded while the server writes it, and staged: the schema
      // builder takes it in meanwhile (at 5,000 tables, for about as long as the write takes).
      // One that cannot be made (a source's enum values unreadable) is made again after the
      // commit, as it was before.
      const whileWriting = async (next: StoredMetadata) => {
        const prepared = await this.snapshots.prepare(next, (uow as UnitOfWork | null)!.inconsistencies).catch(() => null);
        if (prepared) this.snapshots.stage(prepared);
        return prepared;
      };
      const { stored, result, prepared } = await this.store.locked(this.stored, async (current) => {
        // Another instance may have changed the metadata, or re-read a catalog, since we last looked.
        if (current !== this.stored) await this.adopt(current, true);
        if (env.resourceVersion !== undefined && env.resourceVersion !== current.version) {
          throw conflict(`metadata resource version referenced (${env.resourceVersion}) did not match current version (${current.version})`);
        }
        uow = this.unitOfWork(endpoint, current, session);
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
      this.snapshots.unstage();
    }
  }
}

/** A body the scan did not take (not JSON, or nested too deep): parsed whole, for the error and its place. */
function parsedWhole(text: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw parseFailed(`invalid JSON in request body: ${e instanceof Error ? e.message : String(e)}`, '$');
  }
  const deep = tooDeepAt(parsed);
  if (deep) throw parseFailed(tooDeepMessage, deep);
  return parsed;
}

/** `path`: the envelope's (`$`, `$.args[i]` in a bulk). */
function resolveCommand(endpoint: AdminEndpoint, env: Envelope, path: string) {
  // Only export/replace read `version`; elsewhere a valid one is ignored, like the well-known engine does.
  const command = lookupCommand(endpoint, env.type, VERSIONED.has(env.type) ? env.version : undefined);
  if (!command) throw unknownCommand(endpoint, env.type, path);
  return command;
}

/**
 * Whether `env` asks only for data operations (a bulk of them included): all a role other than
 * admin may run, on `/v1/query` (the well-known engine's `requiresAdmin`).
 */
function dataOnly(env: Envelope, path: string): boolean {
  if (env.type !== 'bulk') return DATA_OPERATIONS.has(env.type);
  return arrayOf((v, p) => readEnvelope(v, p))(env.args, `${path}.args`).every((item, i) => dataOnly(item, `${path}.args[${i}]`));
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
    return await uow.apply(resolveCommand(endpoint, env, path), env.args, argsPath);
  } catch (e) {
    // The deprecated API names a badly formed argument without `args` (`$.name`), as the well-known engine does.
    if (endpoint === 'v1/query' && e instanceof ApiError && e.code === 'parse-failed' && e.path.startsWith(argsPath)) {
      throw new ApiError(e.status, e.code, e.message, path + e.path.slice(argsPath.length), e.internal);
    }
    // The deprecated data operations report where in their arguments (`$.args.where.id`), as the well-known engine's do.
    throw DATA_OPERATIONS.has(env.type) ? e : anchorAt(e, argsPath);
  }
}
