/** Boot: configuration, embedded database if needed, actors, then the HTTP front. */
import { readFileSync } from 'node:fs';
import { ConfigError, loadConfig, type Config } from './config/config.js';
import { startEmbeddedPostgres, type EmbeddedServer } from './db/embedded.js';
import { log, logger, setEnabledLogTypes, setLogLevel } from './log.js';
import { metadataActor } from './actors/metadata/client.js';
import { startHttp } from './http/server.js';
import { SchemaBuilder } from './actors/schema-builder/client.js';
import { SnapshotBus } from './actors/snapshot-bus.js';
import { allowGarbageCollection, collectGarbageWhenIdle } from './util/collect-garbage.js';
import { GraphQLService } from './graphql/service.js';
import { Multiplexers } from './actors/multiplexer/client.js';
import { createAuthenticator, type Authenticator } from './auth/resolve.js';
import { TlsAllowlist } from './outgoing/tls-allowlist.js';
import { TriggerDelivery } from './actors/events/client.js';
import { loadFaces } from './backends/registry.js';
import { configApiBody } from './config/config-api.js';
import { subscriptionsExtended } from './actors/multiplexer/extended.js';

/** Boot's progress; its failures go to the engine's diagnostics (`log`), written whatever the enabled types. */
const started = logger('startup');

const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

async function main(): Promise<void> {
  // Worker threads (schema building, compiling) take the environment as it is when they
  // start. Unless NODE_ENV says production, graphql-js checks every failed instanceof test
  // for a second copy of itself: a fifth of a role schema's build time at 5,000 tables.
  process.env.NODE_ENV ??= 'production';
  allowGarbageCollection();
  let config: Config;
  try {
    config = loadConfig(process.argv.slice(2), process.env);
  } catch (e) {
    if (e instanceof ConfigError) {
      log.error(`invalid configuration: ${e.message}`);
      process.exit(2);
    }
    throw e;
  }
  setLogLevel(config.logLevel);
  setEnabledLogTypes(config.enabledLogTypes);

  let embedded: EmbeddedServer | undefined;
  if (!config.databaseUrl) {
    started.info('no database URL configured: starting the embedded PostgreSQL', { dataDir: config.dataDir });
    try {
      embedded = await startEmbeddedPostgres(config.dataDir, (m, f) => started.info(m, f));
    } catch (e) {
      log.error(`${(e as Error).message}; set SERVICE_GRAPHQL_DATABASE_URL to use another PostgreSQL server instead`);
      process.exit(1);
    }
    // The default source reads its URL from the environment (as stored in the metadata);
    // workers inherit it.
    process.env.SERVICE_GRAPHQL_DATABASE_URL = embedded.url;
    config = { ...config, databaseUrl: embedded.url, metadataDatabaseUrl: config.metadataDatabaseUrl ?? embedded.url };
  } else {
    process.env.SERVICE_GRAPHQL_DATABASE_URL = config.databaseUrl;
  }

  const actors = createActors(config);
  const front = wireSnapshots(config, actors);
  let http: { port: number; close(): void } | undefined;
  let authenticator: Authenticator | undefined;
  let shuttingDown = false;
  const shutdown = async (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    started.info('shutting down', { signal });
    http?.close();
    // First: it gives back its event leases while the sources are still there.
    await actors.events.stop().catch(() => {});
    await actors.metadata.stop().catch(() => {});
    await front.graphql.close();
    await actors.schemaBuilder.close().catch(() => {});
    authenticator?.close();
    await embedded?.stop().catch(() => {});
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  const fail = async (what: string, e: unknown) => {
    log.error(what, { error: e instanceof Error ? e.message : String(e) });
    await embedded?.stop().catch(() => {});
    process.exit(1);
  };
  await startActors(actors).catch((e: unknown) => fail('an actor failed to start', e));
  try {
    // After the metadata: the first JWK set fetch follows its TLS allow-list.
    authenticator = await createAuthenticator(config, front.tlsAllowlist);
  } catch (e) {
    return fail('authentication setup failed', e);
  }
  http = await startFront(config, actors, front, authenticator);
  started.info('server ready', { host: config.host, port: http.port, embeddedDatabase: !!embedded, version: VERSION });
}

/** The actors on their threads (not started yet) and the main thread's clients of them. */
function createActors(config: Config) {
  const metadata = metadataActor(config);
  const schemaBuilder = new SchemaBuilder({ stringifyNumericTypes: config.stringifyNumericTypes }, config.actorTimeoutMs);
  const snapshots = new SnapshotBus();
  const multiplexers = new Multiplexers(
    snapshots,
    {
      logLevel: config.logLevel,
      live: { intervalMs: config.liveQueryIntervalMs, batchSize: config.liveQueryBatchSize, changeCapture: config.liveQueryChangeCapture },
      pools: { maxConnections: config.liveQueryMaxConnections, idleTimeoutSeconds: config.liveQueryIdleTimeoutSeconds },
    },
    config.liveQueryMultiplexers,
    config.actorTimeoutMs,
  );
  const events = new TriggerDelivery(
    snapshots,
    {
      logLevel: config.logLevel,
      httpPoolSize: config.eventsHttpPoolSize,
      fetchBatchSize: config.eventsFetchBatchSize,
      fetchIntervalMs: config.eventsFetchIntervalMs,
      retentionHours: config.eventsRetentionHours,
      maxConcurrentPerTrigger: config.eventsMaxConcurrentPerTrigger,
      catalogUrl: config.metadataDatabaseUrl ?? config.databaseUrl!,
      asyncActions: { fetchIntervalMs: config.asyncActionsFetchIntervalMs, batchSize: config.asyncActionsFetchBatchSize, concurrency: config.asyncActionsConcurrency },
    },
    config.actorTimeoutMs,
  );
  return { metadata, snapshots, schemaBuilder, multiplexers, events };
}

type Actors = ReturnType<typeof createActors>;

/**
 * Where each snapshot of the metadata actor goes on the main thread. The multiplexer and
 * delivery actors follow the bus from their constructors; the GraphQL service follows the
 * schema builder's snapshots, so it never compiles one the schema builder does not have.
 */
function wireSnapshots(config: Config, actors: Actors) {
  const { snapshots, schemaBuilder, multiplexers, events } = actors;
  // The front thread loads the backends of the connected sources only (its query pools).
  snapshots.follow(actors.metadata, (s) => loadFaces('runtime', s.connected.map((c) => c.kind)));
  snapshots.subscribe((s) => schemaBuilder.publish(s));
  snapshots.onStaged((s) => schemaBuilder.stage(s));
  // The front thread's garbage of a big change: the request's body, the previous whole update.
  snapshots.subscribe(collectGarbageWhenIdle);
  // Every outgoing HTTPS call follows the metadata's TLS allow-list, which comes with each snapshot.
  const tlsAllowlist = new TlsAllowlist();
  snapshots.subscribe((s) => tlsAllowlist.update(s.tlsAllowlist));
  const graphql = new GraphQLService(
    schemaBuilder,
    schemaBuilder.published,
    multiplexers,
    { enableAllowlist: config.enableAllowlist, persistedQueriesCacheSize: config.persistedQueriesCacheSize },
    tlsAllowlist,
    // Asynchronous actions' calls are stored and read by the trigger-delivery actor (started before any request).
    { enqueue: (...a) => events.enqueueAction(...a), result: (...a) => events.actionResult(...a) },
  );
  return { graphql, tlsAllowlist };
}

/** Starts the actors; resolves once the first snapshot reached its consumers. */
async function startActors(actors: Actors): Promise<void> {
  await Promise.all([actors.metadata.start(), actors.multiplexers.start(), actors.events.start()]);
  // The metadata actor published its first snapshot; its consumers have it once its sources' backends are loaded.
  await actors.snapshots.first();
}

/** The HTTP and WebSocket front: routes to the actors and the GraphQL service. */
function startFront(config: Config, actors: Actors, front: ReturnType<typeof wireSnapshots>, authenticator: Authenticator) {
  const { metadata, multiplexers } = actors;
  const { graphql } = front;
  return startHttp(
    {
      admin: (endpoint, body, session) => metadata.request({ type: 'admin', endpoint, session }, body).finally(collectGarbageWhenIdle),
      health: () => metadata.request({ type: 'health' }),
      sourcesHealth: () => metadata.request({ type: 'sources-health' }),
      graphql: {
        authenticate: (headers, body, requestId) => authenticator.authenticate({ headers, body, requestId }),
        usesCookie: (headers) => authenticator.usesCookie(headers),
        post: (session, body) => graphql.post(session, body),
        get: (session, request) => graphql.get(session, request),
      },
      explain: (body) => graphql.explainRequest(body),
      developer: {
        subscriptions: async () => ({ multiplexers: await multiplexers.counts() }),
        restartSubscriptions: () => multiplexers.restart(),
        planCache: () => graphql.planCache(),
        subscriptionsExtended: async () => subscriptionsExtended(await multiplexers.counts()),
      },
      rest: (session, call) => graphql.restCall(session, call),
      websocket: (upgradeHeaders) => ({
        authenticate: (payload, first) => authenticator.authenticateWebSocket(payload, first ? upgradeHeaders : {}),
        operation: (session, request) => graphql.operation(session, request),
        execute: (session, request) => graphql.single(session, request, '$'),
        subscribe: (session, request, deliver) => graphql.subscribe(session, request, deliver),
        keepAliveMs: config.websocketKeepAliveMs,
        initTimeoutMs: config.websocketInitTimeoutMs,
      }),
    },
    {
      host: config.host,
      port: config.port,
      maxBodyBytes: config.maxBodyBytes,
      adminMaxBodyBytes: config.adminMaxBodyBytes,
      adminSecrets: config.adminSecrets,
      cors: config.cors,
      websocketMaxBufferedBytes: config.websocketMaxBufferedBytes,
      version: VERSION,
      enabledApis: config.enabledApis,
      configBody: configApiBody(config, VERSION),
    },
  );
}

main().catch((e: unknown) => {
  log.error('boot failed', { error: e instanceof Error ? e.message : String(e) });
  process.exit(1);
});
