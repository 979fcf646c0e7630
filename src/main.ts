/** Boot: configuration, embedded database if needed, actors, then the HTTP front. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadConsoleAssets, type ConsoleAsset } from './http/console-assets.js';
import { ConfigError, loadConfig, type Config } from './config/config.js';
import { startEmbeddedPostgres, type EmbeddedServer } from './db/embedded.js';
import { log, logger, setEnabledLogTypes, setLogLevel } from './log.js';
import { metadataActor } from './actors/metadata/client.js';
import { startHttp, type Front } from './http/server.js';
import { SchemaBuilder } from './actors/schema-builder/client.js';
import { SnapshotBus } from './actors/snapshot-bus.js';
import { allowGarbageCollection, collectGarbageWhenIdle } from './util/collect-garbage.js';
import { GraphQLService } from './graphql/service.js';
import { openResponseCache } from './cache/open.js';
import { Multiplexers } from './actors/multiplexer/client.js';
import { createAuthenticator, type Authenticator } from './auth/resolve.js';
import { TlsAllowlist } from './outgoing/tls-allowlist.js';
import { TriggerDelivery } from './actors/events/client.js';
import { loadFaces } from './backends/registry.js';
import type { FrontMetrics } from './observability/metrics/front.js';
import { traces } from './observability/traces/tracer.js';
import { callerContext } from './observability/traces/propagation.js';
import { stopOnSignals } from './lifecycle/shutdown.js';

/** A stopping engine's last phases: each actor answers what it took and exits (`Actor.stop`), then the embedded server's fast shutdown. */
const ACTORS_STOP_MS = 10_000;
const EMBEDDED_STOP_MS = 10_000;
import { configApiBody } from './config/config-api.js';
import { openRedis } from './redis/connection.js';
import { RedisSlidingWindows } from './redis/sliding-window.js';
import { RATE_WINDOW_MS } from './graphql/rate-windows.js';

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
  let consoleAssets: Map<string, ConsoleAsset> | undefined;
  try {
    config = loadConfig(process.argv.slice(2), process.env);
    // Before anything starts: a console asked for and not built is a configuration error.
    if (config.console.enabled) consoleAssets = loadConsoleAssets(config.console.assetsDir ?? fileURLToPath(new URL('./console/', import.meta.url)));
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
  // `/v1/metrics`: the front thread's own counts (its pools read at a scrape); off, nothing counts.
  const metrics = config.enabledApis.has('metrics') ? new (await import('./observability/metrics/front.js')).FrontMetrics(() => front.graphql.openConnections()) : undefined;
  if (metrics && config.metrics.secret === undefined) log.warn('the metrics API is enabled without SERVICE_GRAPHQL_METRICS_SECRET: /v1/metrics is open to anyone');
  const front = wireSnapshots(config, actors, metrics);
  let http: Front | undefined;
  let authenticator: Authenticator | undefined;
  // In order: the front (nothing new comes in, what came is answered), the deliveries (while
  // their sources are up), the other actors and pools, the spans still queued, the embedded PostgreSQL.
  stopOnSignals(
    config.gracefulShutdownTimeoutMs,
    () => [
      { done: 'stopped accepting connections', run: () => http?.close() },
      { done: 'requests and WebSockets ended', run: (deadline) => http?.drain(deadline) },
      { done: 'trigger-delivery actor stopped', run: (deadline) => actors.events.stop(deadline) },
      {
        done: 'actors and pools stopped',
        limitMs: ACTORS_STOP_MS,
        run: async () => {
          await actors.metadata.stop();
          // With its subscriptions, the multiplexer actors.
          await front.graphql.close();
          await actors.schemaBuilder.close();
          authenticator?.close();
          await traces.close();
        },
      },
      ...(embedded ? [{ done: 'embedded PostgreSQL stopped', limitMs: EMBEDDED_STOP_MS, run: () => embedded!.stop() }] : []),
    ],
    // A fast shutdown of the embedded server, not waited for.
    () => void embedded?.stop(),
  );

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
  const scrape = metrics && { ...(await import('./observability/metrics/scrape.js')), ...(await import('./observability/metrics/source-health.js')) };
  http = await startFront(config, actors, front, authenticator, metrics && scrape && { meter: metrics, ...scrape }, consoleAssets);
  started.info('server ready', { host: config.host, port: http.port, embeddedDatabase: !!embedded, version: VERSION });
  if (config.console.enabled) started.info(`console at http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${http.port}/console`);
}

/** The actors on their threads (not started yet) and the main thread's clients of them. */
function createActors(config: Config) {
  const metadata = metadataActor(config);
  const metrics = config.enabledApis.has('metrics') ? { metrics: { highCardinalityLabels: config.metrics.highCardinalityLabels } } : {};
  const schemaBuilder = new SchemaBuilder({ stringifyNumericTypes: config.stringifyNumericTypes }, config.actorTimeoutMs);
  const snapshots = new SnapshotBus();
  const multiplexers = new Multiplexers(
    snapshots,
    {
      logLevel: config.logLevel,
      live: { intervalMs: config.liveQueryIntervalMs, batchSize: config.liveQueryBatchSize, changeCapture: config.liveQueryChangeCapture },
      pools: { maxConnections: config.liveQueryMaxConnections, idleTimeoutSeconds: config.liveQueryIdleTimeoutSeconds },
      queryTracing: config.enableQueryTracing,
      ...metrics,
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
      ...metrics,
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
function wireSnapshots(config: Config, actors: Actors, metrics: FrontMetrics | undefined) {
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
  // The front thread's spans follow the metadata's `opentelemetry` (the delivery actor's follow it on their own).
  traces.statements = config.enableQueryTracing;
  snapshots.subscribe((s) => traces.configure(s.opentelemetry));
  const graphql = new GraphQLService(
    schemaBuilder,
    schemaBuilder.published,
    multiplexers,
    {
      enableAllowlist: config.enableAllowlist,
      persistedQueriesCacheSize: config.persistedQueriesCacheSize,
      ...(metrics ? { meter: metrics, poolMeters: (source: string) => metrics.pools.meter(source) } : {}),
      responseCache: openResponseCache({ ...config.responseCache, redis: config.redis.cache }, schemaBuilder.published, metrics ?? null),
      // The rate limits' windows in Redis, shared by every engine using it; else counted on this node.
      ...(config.redis.rateLimit ? { rateLimits: new RedisSlidingWindows(openRedis(config.redis.rateLimit, 'rate limits'), RATE_WINDOW_MS) } : {}),
    },
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
/** Metrics on: the front thread's counts, and how a scrape sums every thread's (`observability/metrics/scrape.ts`). */
interface FrontMetricsParts {
  meter: FrontMetrics;
  scrapeMetrics: typeof import('./observability/metrics/scrape.js').scrapeMetrics;
  METRICS_CONTENT_TYPE: string;
  sourceHealthMetrics: typeof import('./observability/metrics/source-health.js').sourceHealthMetrics;
}

function startFront(config: Config, actors: Actors, front: ReturnType<typeof wireSnapshots>, authenticator: Authenticator, metrics: FrontMetricsParts | undefined, consoleAssets: Map<string, ConsoleAsset> | undefined) {
  const { metadata, multiplexers, events } = actors;
  const { graphql } = front;
  return startHttp(
    {
      admin: (endpoint, body, session) => metadata.request({ type: 'admin', endpoint, session }, body).finally(collectGarbageWhenIdle),
      health: () => metadata.request({ type: 'health' }),
      sourcesHealth: () => metadata.request({ type: 'sources-health' }),
      pgDump: (body) => metadata.request({ type: 'pg-dump' }, body),
      graphql: {
        authenticate: (headers, body, trace, requestId) => authenticator.authenticate({ headers, body, trace, requestId }),
        usesCookie: (headers) => authenticator.usesCookie(headers),
        readsClientAddress: () => graphql.readsClientAddress(),
        post: (session, body, startedAt) => graphql.post(session, body, startedAt),
        get: (session, request, startedAt) => graphql.get(session, request, startedAt),
      },
      explain: (body) => graphql.explainRequest(body),
      clearCache: (what) => graphql.clearCache(what),
      developer: {
        subscriptions: async () => ({ multiplexers: await multiplexers.counts() }),
        restartSubscriptions: () => multiplexers.restart(),
        planCache: () => graphql.planCache(),
        subscriptionsExtended: () => multiplexers.extended(),
      },
      rest: (session, call) => graphql.restCall(session, call),
      websocket: (upgradeHeaders, address) => ({
        authenticate: async (payload, first) => {
          const r = await authenticator.authenticateWebSocket(payload, first ? upgradeHeaders : {});
          return 'role' in r ? { ...r, clientAddress: address } : r;
        },
        operation: (session, request) => graphql.operation(session, request),
        execute: (session, request) => graphql.single(session, request, '$'),
        subscribe: (session, request, deliver, connection) => graphql.subscribe(session, request, deliver, connection),
        keepAliveMs: config.websocketKeepAliveMs,
        initTimeoutMs: config.websocketInitTimeoutMs,
        callerTrace: () => callerContext(upgradeHeaders),
      }),
      ...(metrics && {
        metrics: {
          // Each scrape checks the sources' health as `/healthz/sources` does (docs/operations.md).
          scrape: () => metrics.scrapeMetrics(metrics.meter.json(), [multiplexers.metrics(), events.metrics(), metrics.sourceHealthMetrics(metadata.request({ type: 'sources-health' }))]),
          contentType: metrics.METRICS_CONTENT_TYPE,
          secret: config.metrics.secret,
          http: metrics.meter,
          websocket: metrics.meter.websocket,
          requests: metrics.meter,
        },
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
      ...(consoleAssets && { consoleAssets }),
    },
  );
}

main().catch((e: unknown) => {
  log.error('boot failed', { error: e instanceof Error ? e.message : String(e) });
  process.exit(1);
});
