/**
 * Asynchronous actions on the trigger-delivery actor (spec "Action", `kind: asynchronous`): the
 * front thread's mutation stores a call here (`enqueue`, answered with its id), and this loop
 * leases stored calls in batches (`db/action-log.ts`: `FOR UPDATE SKIP LOCKED`, so instances
 * share them and a call whose engine stopped is taken again once its lease runs out), calls the
 * handler (outgoing/action-call.ts) with at most `concurrency` calls in flight, and records the
 * output or the errors. Polls every `fetchIntervalMs` (0: never) and at once after a new call.
 */
import { log } from '../../log.js';
import type { AsyncActionView } from '../../metadata/actions.js';
import { ActionLogStore, type ActionLogRow } from '../../db/action-log.js';
import type { ActionResult } from '../../protocol/messages.js';
import { callActionHandler } from '../../outgoing/action-call.js';
import type { HttpClient } from '../../outgoing/http-client.js';
import { coalesced } from '../../util/coalesced.js';
import { InFlight } from './in-flight.js';

export interface AsyncActionLimits {
  fetchIntervalMs: number;
  batchSize: number;
  concurrency: number;
}

export class AsyncActions {
  private readonly store: ActionLogStore;
  private actions = new Map<string, AsyncActionView>();
  readonly inFlight = new InFlight();
  /** The poll under way, if any. */
  readonly polls = new InFlight();
  private timer: NodeJS.Timeout | null = null;
  /** Poll now (coalesced with a poll under way). */
  private readonly pollSoon = coalesced(() => this.polls.track(() => this.poll()));
  private stopped = false;
  /** Whether this instance ever leased a call (else there is nothing to give back, maybe not even the table). */
  private leased = false;

  constructor(
    catalogUrl: string,
    private readonly client: HttpClient,
    private readonly limits: AsyncActionLimits,
    private readonly instance: string,
  ) {
    this.store = new ActionLogStore(catalogUrl, 4);
  }

  start(): void {
    if (this.limits.fetchIntervalMs === 0) return;
    this.timer = setInterval(() => this.wake(), this.limits.fetchIntervalMs);
  }

  update(list: readonly AsyncActionView[]): void {
    this.actions = new Map(list.map((a) => [a.name, a]));
    this.wake();
  }

  async enqueue(action: string, input: unknown, session: Record<string, string>, headers: Record<string, string>, requestQuery: string): Promise<string> {
    const id = await this.store.insert(action, input, session, headers, requestQuery);
    this.wake();
    return id;
  }

  async result(id: string, action: string, session: Record<string, string>): Promise<ActionResult | null> {
    const row = await this.store.result(id, action, session);
    if (!row) return null;
    return { id: row.id, created_at: row.created_at, errors: row.errors ?? null, output: row.status === 'completed' ? row.response_payload : null };
  }

  private wake(): void {
    if (this.stopped || this.limits.fetchIntervalMs === 0 || this.actions.size === 0) return;
    this.pollSoon();
  }

  private async poll(): Promise<void> {
    try {
      const room = Math.min(this.limits.batchSize, this.limits.concurrency - this.inFlight.size);
      const timeouts = Object.fromEntries([...this.actions.values()].map((a) => [a.name, a.handler.timeoutSeconds]));
      const rows = await this.store.fetch(timeouts, room, this.instance);
      if (rows.length > 0) this.leased = true;
      // Room again after each: calls may be waiting.
      for (const row of rows) void this.inFlight.track(() => this.process(row), () => this.wake());
      // A full batch: more may be due (run again once this poll ends).
      if (rows.length === room && room > 0) this.pollSoon();
    } catch (e) {
      log.warn('asynchronous action calls cannot be fetched', { error: e instanceof Error ? e.message : String(e) });
    }
  }

  private async process(row: ActionLogRow): Promise<void> {
    const view = this.actions.get(row.action_name);
    if (!view) return;
    const outcome = await callActionHandler(
      this.client,
      view.handler,
      { action: { name: row.action_name }, input: row.input_payload, session_variables: row.session_variables, request_query: row.request_query },
      row.request_headers,
      process.env,
    );
    if (this.inFlight.cut) return;
    try {
      await this.store.finish(row.id, outcome.ok ? { output: outcome.output } : { errors: { message: outcome.message, extensions: outcome.extensions } }, this.instance);
    } catch (e) {
      log.warn('an asynchronous action call cannot be recorded', { action: row.action_name, id: row.id, error: e instanceof Error ? e.message : String(e) });
    }
  }

  /** No poll from now on (the engine stops). */
  stopPolling(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
  }

  /** After the calls in flight ended or were cut: gives back the leases still held. */
  async stop(): Promise<void> {
    if (this.leased) await this.store.release(this.instance).catch((e: unknown) => log.warn('asynchronous action leases cannot be given back', { error: String(e) }));
    await this.store.close().catch(() => {});
  }
}
