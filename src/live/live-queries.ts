/**
 * Subscriptions as multiplexed live queries (spec "Explain API"), as the
 * well-known engine runs them. Subscribers whose plans have the same role and statements
 * share a multiplexed query: requests differing only in the literals of the query do too,
 * as those are lifted into synthetic variables. Subscribers with the same cohort values
 * (variables, the session variables the plan reads, synthetic variables:
 * `execute/cohort.ts`) share a cohort. Every refetch interval a multiplexed query runs one
 * statement per SQL field for each batch of up to `batchSize` cohorts, and a cohort's
 * subscribers get its result only when it changed (a hash of the JSON text, which is spliced
 * unparsed). A new subscriber gets the current result from a refetch of its cohort on the
 * next turn of the event loop, or at once its cohort's last result when change capture says
 * it is still current. With change capture, a query whose tables are all captured runs
 * only after a write to one of them (`refetch-schedule.ts`). A streaming subscription's cohorts
 * are multiplexed the same way; they differ in what is sent (each non-empty batch, no hash) and
 * in their values, whose cursor moves after each batch (`streams.ts`). While tracing, each
 * refetch is a trace of its own (`live query poll` / `streaming query poll`, its statements'
 * spans in it); its statements carry the source's query tags as a subscription's
 * (docs/operations.md "Traces", "Query tags").
 *
 * Plain data in (plan steps, cohort values as JSON text), text out (`Subscriber`): it runs on
 * the multiplexer actors (`actors/multiplexer/worker.ts`).
 */
import { createHash } from 'node:crypto';
import { RequestError } from '../errors/request.js';
import { bindCohort } from '../execute/cohort.js';
import type { SourceConnections } from '../execute/connections.js';
import { statementFailure } from '../execute/database-errors.js';
import { ExecutionError } from '../errors/execution.js';
import { assembleData } from '../execute/response.js';
import { logger } from '../log.js';
import { tagged } from '../execute/query-tags.js';
import { fieldName } from '../execute/field-name.js';
import { inStatementSpan } from '../execute/statement-span.js';
import { endSpan, traces, within, type Context } from '../observability/traces/tracer.js';
import type { PlanStep } from '../protocol/plan.js';
import type { CohortValues, LiveQuery, LiveQueryCounts, LiveQueryOptions } from '../protocol/live.js';
import type { ChangeCapture } from './change-capture.js';
import { toGraphQLReply } from '../errors/graphql-reply.js';
import { RefetchSchedule } from './refetch-schedule.js';
import { advanceCursors, cohortKey } from './streams.js';

const log = logger('livequery-poller-log');

/**
 * Receives a subscription's response text (`{"data": ...}` or `{"errors": ...}`), with the
 * hash of a live query's result (null for a stream's batch) and a stream cohort's values
 * after its cursor moved (null for a live query): what a subscriber registered again (a
 * restarted multiplexer actor) needs not to get the same result twice, nor rows it had.
 */
export type Subscriber = (text: string, hash: string | null, values: (CohortValues | null)[] | null) => void;


interface Cohort {
  /** Its key in its multiplexed query (a streaming cohort's moves with its cursor). */
  key: string;
  /** Each step's values (null: no SQL). */
  values: (CohortValues | null)[];
  /** The same as the multiplexed statements read them: JSON text. */
  texts: (string | null)[];
  subscribers: Set<Subscriber>;
  /** Subscribers that have had no result yet. */
  fresh: Set<Subscriber>;
  /** Hash of the last result sent. */
  hash: string | null;
  /** The last result sent, when small enough to keep: what a new subscriber gets while it is current. */
  last: string | null;
}

const NO_LABELS: Readonly<Record<string, string>> = Object.freeze({});

/** The largest result a cohort keeps for its new subscribers (larger ones are fetched for them). */
const KEPT_RESULT_BYTES = 64 * 1024;

/**
 * What the multiplexer actor's metrics see of its polls (`actors/multiplexer/metrics.ts`); absent
 * when metrics are off. `labels` are a poller's metric labels, made once when it starts.
 */
export interface LiveMeter {
  labels(live: LiveQuery, streaming: boolean): Readonly<Record<string, string>>;
  /** One poll of a multiplexed query, every batch included (the well-known engine's "total time"). */
  polled(labels: Readonly<Record<string, string>>, seconds: number): void;
  /** One batch's statements on the database. */
  batchRan(labels: Readonly<Record<string, string>>, seconds: number): void;
}

/** A running multiplexed query as the metrics' gauges read it at a scrape. */
export interface PollerState {
  labels: Readonly<Record<string, string>>;
  subscribers: number;
  /** Its last poll answered errors. */
  failing: boolean;
}

interface MultiplexedQuery {
  key: string;
  steps: PlanStep[];
  cohorts: Map<string, Cohort>;
  running: boolean;
  /** A refetch for fresh subscribers is due on the next turn of the event loop. */
  soon: boolean;
  /** A streaming subscription: cohorts get each batch of new rows, and their cursors move (`streams.ts`). */
  streaming: boolean;
  /** Its metric labels (metrics on). */
  labels: Readonly<Record<string, string>>;
  failing: boolean;
  /** Its parameterized query hash (the first subscriber's request's), in its statements' query tags. */
  queryHash: string | null;
  /** The sources its statements read, as its poll spans name them. */
  sources: string;
}

/** One step's JSON text for each cohort of a batch, and a streaming step's new cursor for each (null: no rows). */
interface StepResults {
  texts: string[];
  cursors: (string | null)[] | null;
}


export class LiveQueries {
  private readonly queries = new Map<string, MultiplexedQuery>();
  private readonly timer: NodeJS.Timeout;
  private readonly schedule: RefetchSchedule<MultiplexedQuery>;

  constructor(
    private readonly sources: SourceConnections,
    private readonly options: LiveQueryOptions,
    capture: ChangeCapture | null = null,
    private readonly meter: LiveMeter | null = null,
  ) {
    this.schedule = new RefetchSchedule(capture, options.intervalMs, (q) => void this.refetch(q, false));
    this.timer = setInterval(() => this.tick(), options.intervalMs);
    this.timer.unref();
  }

  /**
   * Adds a subscriber of a live query with its cohort values. Returns how to unsubscribe,
   * which gives the cohort's values as they are then (a stream's cursors have moved).
   */
  subscribe(live: LiveQuery, values: (CohortValues | null)[], subscriber: Subscriber): () => (CohortValues | null)[] {
    const { key, role, steps } = live;
    let query = this.queries.get(key);
    if (!query) {
      const streaming = steps.some((s) => s.run.kind === 'sql' && s.run.stream !== undefined);
      const sources = [...new Set(steps.flatMap((s) => (s.run.kind === 'sql' ? [s.run.source] : [])))].join(',');
      query = { key, steps, cohorts: new Map(), running: false, soon: false, streaming, labels: this.meter?.labels(live, streaming) ?? NO_LABELS, failing: false, queryHash: live.queryHash, sources };
      this.queries.set(key, query);
      this.schedule.add(query, live.reads);
      log.debug('live query started', { role, statements: steps.filter((s) => s.run.kind === 'sql').length });
    }
    const texts = values.map((v) => (v === null ? null : JSON.stringify(v)));
    const ckey = cohortKey(texts);
    let cohort = query.cohorts.get(ckey);
    if (!cohort) {
      cohort = { key: ckey, values, texts, subscribers: new Set(), fresh: new Set(), hash: null, last: null };
      query.cohorts.set(ckey, cohort);
    }
    cohort.subscribers.add(subscriber);
    // Under change capture, no write since the cohort's last run: its last result is current
    // (a write whose notice is on its way refetches it for every subscriber, this one too).
    if (cohort.last !== null && !query.running && this.schedule.current(query)) subscriber(cohort.last, cohort.hash, null);
    else {
      cohort.fresh.add(subscriber);
      this.soon(query);
    }
    const [q, c] = [query, cohort];
    return () => {
      c.subscribers.delete(subscriber);
      c.fresh.delete(subscriber);
      if (c.subscribers.size > 0 || q.cohorts.get(c.key) !== c) return c.values;
      q.cohorts.delete(c.key);
      if (q.cohorts.size > 0 || this.queries.get(key) !== q) return c.values;
      this.queries.delete(key);
      this.schedule.remove(q);
      log.debug('live query stopped', { role });
      return c.values;
    };
  }

  /** Multiplexed queries, their cohorts and subscribers now running. */
  get counts(): LiveQueryCounts {
    let cohorts = 0;
    let subscribers = 0;
    for (const q of this.queries.values()) {
      cohorts += q.cohorts.size;
      for (const c of q.cohorts.values()) subscribers += c.subscribers.size;
    }
    return { queries: this.queries.size, cohorts, subscribers };
  }

  /** Each running multiplexed query's labels, subscribers and state (the metrics' gauges, at a scrape). */
  *pollers(): Iterable<PollerState> {
    for (const q of this.queries.values()) {
      let subscribers = 0;
      for (const c of q.cohorts.values()) subscribers += c.subscribers.size;
      yield { labels: q.labels, subscribers, failing: q.failing };
    }
  }

  private tick(): void {
    for (const query of this.queries.values()) if (this.schedule.polled(query)) void this.refetch(query, false);
  }

  private soon(query: MultiplexedQuery): void {
    if (query.soon) return;
    query.soon = true;
    setImmediate(() => {
      query.soon = false;
      void this.refetch(query, true);
    });
  }

  /** Runs the query for every cohort (`freshOnly`: the cohorts with a subscriber waiting for its first result). */
  private async refetch(query: MultiplexedQuery, freshOnly: boolean): Promise<void> {
    // A slow refetch is not started again before it finishes; subscribers that arrived meanwhile are served right after.
    if (query.running) return;
    query.running = true;
    if (!freshOnly) this.schedule.started(query);
    const started = this.meter ? performance.now() : 0;
    const cohorts = [...query.cohorts.values()].filter((c) => !freshOnly || c.fresh.size > 0);
    // Each poll is a trace of its own while tracing (no request is its parent), its statements' spans in it.
    const span = traces.enabled ? traces.start(query.streaming ? 'streaming query poll' : 'live query poll', undefined, undefined, { source: query.sources, cohorts: cohorts.length, 'graphql.operation.type': 'subscription' }) : undefined;
    const trace = span && within(span);
    try {
      const batches: Cohort[][] = [];
      for (let i = 0; i < cohorts.length; i += this.options.batchSize) batches.push(cohorts.slice(i, i + this.options.batchSize));
      span?.setAttribute('batches', batches.length);
      const sent = await Promise.all(batches.map((batch) => this.runBatch(query, batch, trace)));
      // A stream that sent a batch may have more rows waiting, written or not: it runs again.
      if (query.streaming && sent.includes(true)) this.schedule.again(query);
    } finally {
      query.running = false;
      endSpan(span, query.failing ? 'a batch of the poll failed' : undefined);
    }
    this.meter?.polled(query.labels, (performance.now() - started) / 1000);
    this.schedule.finished(query);
    if (this.queries.get(query.key) === query && [...query.cohorts.values()].some((c) => c.fresh.size > 0)) this.soon(query);
  }

  /** Runs one batch of cohorts and sends their results; whether a stream cohort got rows. */
  private async runBatch(query: MultiplexedQuery, cohorts: Cohort[], trace: Context | undefined): Promise<boolean> {
    const steps = query.steps;
    let answers: string[];
    let cursors: ((string | null)[] | null)[] | null = null;
    const started = this.meter ? performance.now() : 0;
    try {
      const results = await Promise.all(steps.map((step, i) => this.runStep(query, step, i, cohorts, trace)));
      this.meter?.batchRan(query.labels, (performance.now() - started) / 1000);
      answers = cohorts.map((_, c) => `{"data":${assembleData(steps, results.map((r) => r.texts[c]!))}}`);
      if (query.streaming) cursors = results.map((r) => r.cursors);
      query.failing = false;
    } catch (e) {
      answers = cohorts.map(() => toGraphQLReply(e).body);
      query.failing = true;
    }
    let streamed = false;
    cohorts.forEach((cohort, c) => {
      const text = answers[c]!;
      if (cursors) {
        // A batch of new rows goes to every subscriber, once; no new rows, nothing is sent.
        cohort.fresh.clear();
        cohort.hash = null;
        if (!advanceCursors(query.cohorts, cohort, cursors.map((stepCursors) => stepCursors?.[c] ?? null))) return;
        streamed = true;
        for (const s of [...cohort.subscribers]) s(text, null, cohort.values);
        return;
      }
      const hash = createHash('sha1').update(text).digest('base64');
      const to = hash === cohort.hash ? cohort.fresh : cohort.subscribers;
      cohort.hash = hash;
      cohort.last = text.length <= KEPT_RESULT_BYTES ? text : null;
      for (const s of [...to]) s(text, hash, null);
      cohort.fresh.clear();
    });
    return streamed;
  }

  /** One step's JSON text (and new cursor) for each cohort of the batch (`trace`: the poll's span, while tracing). */
  private async runStep(query: MultiplexedQuery, step: PlanStep, i: number, cohorts: Cohort[], trace: Context | undefined): Promise<StepResults> {
    const run = step.run;
    if (run.kind === 'constant') return { texts: cohorts.map(() => run.json), cursors: null };
    if (run.kind !== 'sql') throw new Error('a subscription plan has only queries');
    const source = this.sources.get(run.source);
    if (!source) throw new RequestError(`source ${JSON.stringify(run.source)} is not available`, '$', 'unexpected');
    const multiplexed = run.multiplexed;
    // Only a multiplexed statement returns a stream's new cursor (backends that stream have one).
    if (!multiplexed && run.stream) throw new RequestError('streaming subscriptions are not supported on this source', '$', 'not-supported');
    // The source's query tags, as the well-known engine tags a subscription's: its field and parameterized query hash (no request id).
    const planned = multiplexed ?? run;
    const { text, statement } = tagged(source.queryTags, planned, fieldName(step), { queryHash: query.queryHash ?? undefined });
    const traced = <T>(statement: () => Promise<T>): Promise<T> => (trace ? inStatementSpan(trace, run.source, source.backend.kind, text, statement) : statement());
    try {
      if (!multiplexed) return { texts: await Promise.all(cohorts.map((c) => traced(() => source.connection.json(text, bindCohort(run.params, c.values[i]!), statement)))), cursors: null };
      const values = [cohorts.map((c) => c.texts[i])];
      const rows = await traced(() => source.connection.rows(text, values, statement));
      log.debug('live query refetched', { source: run.source, cohorts: cohorts.length, rows: rows.length });
      const texts = cohorts.map(() => 'null');
      const cursors = run.stream ? cohorts.map((): string | null => null) : null;
      for (const row of rows) {
        texts[Number(row.result_id) - 1] = row.result ?? 'null';
        if (cursors) cursors[Number(row.result_id) - 1] = row.cursor ?? null;
      }
      return { texts, cursors };
    } catch (e) {
      throw new ExecutionError(statementFailure(source.backend, e, planned.text).error);
    }
  }

  close(): void {
    clearInterval(this.timer);
    this.schedule.close();
    this.queries.clear();
  }
}
