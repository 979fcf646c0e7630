/**
 * One administration request: its commands (several for `bulk`) applied in order to a
 * draft of the metadata, with run_sql statements held in open source transactions.
 * Nothing is visible until `commit`; any failure rolls everything back, so a bulk is
 * all or nothing.
 */
import type { AdminTransaction, RunSqlResponse } from '../../backends/faces/admin.js';
import { backendFor } from '../../backends/registry.js';
import type { DatabaseCatalog } from '../../catalog/types.js';
import type { Command, CommandContext, RunSqlOptions } from './commands/context.js';
import { applyCatalogChanges } from '../../metadata/catalog-changes.js';
import { normalizeMetadata } from '../../metadata/document.js';
import { inconsistencyKey, resolveMetadata, type Inconsistency, type SourceCatalog } from '../../metadata/resolve.js';
import type { DocumentResolver } from './document-resolver.js';
import type { InconsistentObject, Metadata } from '../../metadata/types.js';
import { ApiError, badRequest } from '../../errors/admin.js';
import type { AdminEndpoint } from '../../protocol/messages.js';
import type { Json } from '../../util/decode.js';
import { deepFreeze, DraftSession, produce } from '../../util/draft.js';
import type { SourceManager } from './sources.js';
import type { RemoteManager } from './remotes.js';
import { remoteSchemas } from '../../metadata/remote-schemas.js';
import { conflictMessage, newConflicts, type RootFieldConflict } from '../../metadata/resolve/root-fields.js';
import type { RemoteState } from '../../metadata/resolve/remote-schemas.js';

/** What a unit of work runs on: the actor's connections and the state the request starts from. */
export interface UnitOfWorkContext {
  sources: SourceManager;
  remotes: RemoteManager;
  endpoint: AdminEndpoint;
  /** The caller's session variables: the source transactions record them for event triggers (`AdminConnection.begin`). */
  session: Record<string, string>;
  /** The state in effect: its document, inconsistencies and version. */
  metadata: Metadata;
  inconsistencies: Inconsistency[];
  resourceVersion: number;
  /** A statement on the metadata database (the scheduled events live there). */
  catalogQuery: (text: string, params: unknown[]) => Promise<Record<string, unknown>[]>;
  /** `--enable-remote-schema-permissions`. */
  remoteSchemaPermissions: boolean;
  /** The actor's resolution of documents (and its memo). */
  resolver: DocumentResolver;
}

export class UnitOfWork {
  metadata: Metadata;
  inconsistencies: Inconsistency[];
  /** Catalogs as this unit of work sees them (overrides after DDL in open transactions). */
  private readonly catalogs: Map<string, SourceCatalog>;
  private readonly changedCatalogs = new Map<string, DatabaseCatalog>();
  private readonly transactions = new Map<string, AdminTransaction>();
  /** The catalogs this request re-read (DDL, a reload, a catalog found stale): every other engine reads them again too. */
  readonly reread = { sources: new Set<string>(), remoteSchemas: new Set<string>() };
  /** Sources whose event triggers are installed again once this request is in effect (reload_metadata). */
  recreateEventTriggers: ReadonlySet<string> | true = new Set();

  private readonly sources: SourceManager;
  private readonly remotes: RemoteManager;
  readonly endpoint: AdminEndpoint;
  private readonly session: Record<string, string>;
  readonly resourceVersion: number;
  private readonly catalogQuery: UnitOfWorkContext['catalogQuery'];
  private readonly remoteSchemaPermissions: boolean;
  private readonly resolver: DocumentResolver;
  /** The root-field conflicts of the document last checked (`check`). */
  private lastConflicts: RootFieldConflict[] = [];
  /** The state in effect when the request began, which root-field conflicts are judged against (resolved again only when there are some). */
  private readonly initial: { metadata: Metadata; catalogs: ReadonlyMap<string, SourceCatalog>; remotes: ReadonlyMap<string, RemoteState> };

  constructor(c: UnitOfWorkContext) {
    this.sources = c.sources;
    this.remotes = c.remotes;
    this.endpoint = c.endpoint;
    this.session = c.session;
    this.resourceVersion = c.resourceVersion;
    this.catalogQuery = c.catalogQuery;
    this.remoteSchemaPermissions = c.remoteSchemaPermissions;
    this.resolver = c.resolver;
    // Committed metadata is frozen: drafts share its objects (a no-op when it already is).
    this.metadata = deepFreeze(c.metadata);
    this.inconsistencies = c.inconsistencies;
    this.catalogs = c.sources.catalogs();
    this.initial = { metadata: this.metadata, catalogs: new Map(this.catalogs), remotes: c.remotes.states() };
  }

  /**
   * Runs one command against a copy-on-write draft of the metadata; throws (leaving the
   * metadata as it was) when it fails. The new document shares every object the command
   * did not touch with the old one.
   */
  async apply(command: Command, args: unknown, path: string, endpoint: AdminEndpoint = this.endpoint): Promise<Json> {
    const session = new DraftSession();
    const ctx = this.context(session.draft(this.metadata), endpoint);
    const result = await command(ctx, args, path);
    const [changed, response] = session.finish([result.metadata, result.response] as const);
    const recreate = result.recreateEventTriggers;
    if (recreate) this.recreateEventTriggers = recreate === true || this.recreateEventTriggers === true ? true : new Set([...this.recreateEventTriggers, ...recreate]);
    const before = new Set(this.inconsistencies.map((i) => inconsistencyKey(i.object)));
    if (changed) {
      await Promise.all([this.sources.sync(changed), this.remotes.sync(changed)]);
      this.refreshCatalogs();
    }
    let next = changed ?? this.metadata;
    // Informational inconsistencies (conflicting inherited permissions) never block a change.
    const newlyBroken = (list: Inconsistency[]) => list.filter((i) => !i.informational && !before.has(inconsistencyKey(i.object)));
    let after = this.check(next);
    let added = newlyBroken(after);
    // The databases may have changed since their catalogs were read (DDL outside the engine, then
    // replace_metadata): what does not resolve is checked once more against fresh catalogs. Not
    // those of sources with a transaction open here: this request's own view of them is current.
    const stale = changed ? changed.sources.map((x) => x.name).filter((name) => !this.transactions.has(name)) : [];
    if (added.length > 0 && stale.length > 0) {
      await this.sources.sync(changed!, new Set(stale));
      for (const name of stale) this.reread.sources.add(name);
      this.refreshCatalogs();
      after = this.check(next);
      added = newlyBroken(after);
    }
    // `cascade`: what the change broke is removed, and what that removal breaks in turn.
    const consistency = result.consistency ?? 'refuse-new';
    for (let round = 0; consistency === 'cascade' && added.length > 0 && round < 10; round++) {
      const broken = added;
      next = produce(next, (d) => broken.forEach((i) => i.remove(d)));
      after = this.check(next);
      added = newlyBroken(after);
    }
    // A field two objects define would leave one of them out of the schema: the well-known engine
    // cannot build such a schema and refuses the change (`allow_inconsistent_metadata` or not).
    // Conflicts the state in effect had already (stored before this check existed) block nothing new.
    // Judged against the state in effect with the catalogs it was resolved with: a catalog re-read
    // (run_sql, reload_metadata) that gives a table a field another has is refused too.
    if (this.lastConflicts.length > 0) {
      const { metadata, catalogs, remotes } = this.initial;
      const made = newConflicts(this.lastConflicts, this.resolver.resolve(metadata, catalogs, remotes).conflicts);
      if (made.length > 0) throw new ApiError(400, 'unexpected', conflictMessage(made), path);
    }
    const failing = consistency === 'refuse-any' ? after : added;
    if (failing.length > 0 && consistency !== 'allow') {
      throw (result.inconsistencyError ?? inconsistentMetadataError)(failing.map((i) => i.object));
    }
    if (changed) this.metadata = normalizeMetadata(next);
    this.inconsistencies = after;
    return result.reportInconsistencies ? result.reportInconsistencies(after.map((i) => i.object)) : response;
  }

  private check(m: Metadata): Inconsistency[] {
    const { inconsistencies, conflicts } = this.resolver.resolve(m, this.catalogs, this.remotes.states());
    this.lastConflicts = conflicts;
    return inconsistencies;
  }

  /** The sources' catalogs after a sync, with those this unit of work changed (uncommitted DDL) taking precedence. */
  private refreshCatalogs(): void {
    this.catalogs.clear();
    for (const [name, c] of this.sources.catalogs()) {
      const mine = this.changedCatalogs.get(name);
      this.catalogs.set(name, mine ? { introspection: mine, error: null } : c);
    }
  }

  private context(draft: Metadata, endpoint: AdminEndpoint): CommandContext {
    return {
      endpoint,
      session: this.session,
      metadata: draft,
      resourceVersion: this.resourceVersion,
      introspection: (s) => this.catalogs.get(s)?.introspection ?? undefined,
      resolveMemo: this.resolver.memo,
      resolved: () => resolveMetadata(draft, this.catalogs, this.resolver.memo),
      sourceError: (s) => this.catalogs.get(s)?.error ?? undefined,
      inconsistencies: () => this.inconsistencies.map((i) => i.object),
      backend: backendFor,
      runSql: (opts) => this.runSql(draft, opts),
      query: async (source, text, params) => (await this.transaction(source, false)).query(text, params),
      catalogQuery: this.catalogQuery,
      reloadSources: async (names) => {
        const reloaded = names === true ? draft.sources.map((s) => s.name) : names;
        await this.sources.sync(draft, new Set(reloaded));
        for (const name of reloaded) this.reread.sources.add(name);
        this.refreshCatalogs();
        // The baseline a change is judged against: the state before the command, with the fresh catalogs.
        this.inconsistencies = this.check(this.metadata);
      },
      remoteSchemaPermissions: this.remoteSchemaPermissions,
      remoteIntrospection: (name) => this.remotes.states().get(name)?.introspection ?? undefined,
      reloadRemoteSchemas: async (names) => {
        const reloaded = names === true ? remoteSchemas(draft).map((r) => r.name) : names;
        await this.remotes.sync(draft, new Set(reloaded));
        for (const name of reloaded) this.reread.remoteSchemas.add(name);
        this.inconsistencies = this.check(this.metadata);
      },
      dropInconsistentObjects: () => {
        for (const i of this.inconsistencies) i.remove(draft);
      },
    };
  }

  private async transaction(source: string, readOnly: boolean): Promise<AdminTransaction> {
    const open = this.transactions.get(source);
    if (open) return open;
    const connection = this.sources.connection(source);
    const sourceMeta = this.metadata.sources.find((s) => s.name === source);
    if (!connection || !sourceMeta) throw badRequest('not-exists', `source with name ${JSON.stringify(source)} does not exist or is not connected`, '$.args.source');
    // Every write of this request (run_sql, the data operations) runs here: one place records its session.
    const tx = await connection.begin(sourceMeta.configuration, readOnly, JSON.stringify(this.session));
    this.transactions.set(source, tx);
    return tx;
  }

  /** Executes SQL in the source's open transaction; after DDL, re-reads the catalog and carries renames and drops into the draft. */
  private async runSql(draft: Metadata, opts: RunSqlOptions): Promise<RunSqlResponse> {
    const tx = await this.transaction(opts.source, opts.readOnly);
    const result = await tx.runSql(opts.sql);
    if (opts.checkConsistency && !opts.readOnly && tx.mayChangeCatalog(opts.sql)) {
      const old = this.catalogs.get(opts.source)?.introspection ?? null;
      const fresh = await tx.introspect();
      this.changedCatalogs.set(opts.source, fresh);
      this.reread.sources.add(opts.source);
      this.catalogs.set(opts.source, { introspection: fresh, error: null });
      if (old) applyCatalogChanges(draft, opts.source, old, fresh, opts.cascade);
    }
    return result;
  }

  /** Commits the source transactions; the caller commits the metadata right after. */
  async commitSources(): Promise<void> {
    for (const [, tx] of this.transactions) await tx.commit();
    this.transactions.clear();
    for (const [name, intro] of this.changedCatalogs) this.sources.setIntrospection(name, intro);
  }

  async rollback(): Promise<void> {
    for (const [, tx] of this.transactions) await tx.rollback();
    this.transactions.clear();
  }
}

export function inconsistentMetadataError(objects: InconsistentObject[]): ApiError {
  const first = objects[0]!;
  return new ApiError(400, 'invalid-configuration', first.reason, '$.args', objects);
}
