/**
 * The front thread's subscriptions: a subscriber's request planned like any other
 * (`plan-lookup.ts`), its cohort values bound (`execute/cohort.ts`), and handed to the
 * multiplexer actors (`actors/multiplexer/`), which run the live queries. A metadata change
 * that touches what a subscription's plan read plans it again, so a changed permission
 * applies to running subscriptions too.
 */
import type { Corkable, Deliver, Multiplexers } from '../actors/multiplexer/client.js';
import type { SnapshotBus } from '../actors/snapshot-bus.js';
import type { Session } from '../auth/session.js';
import { cohortValues, keepCursors } from '../execute/cohort.js';
import type { CohortValues } from '../protocol/live.js';
import type { Plan } from '../protocol/plan.js';
import { toGraphQLReply } from '../errors/graphql-reply.js';
import { liveQuery } from './live-query-key.js';
import { staleness } from './plan-cache.js';
import type { PlanLookup } from './plan-lookup.js';
import { readRequest, type GraphQLRequest } from './request.js';
import { pollActionResult } from './action-subscriptions.js';

/** How often a subscription to an asynchronous action's result reads it again. */
const ACTION_RESULT_POLL_MS = 1000;

interface Subscription {
  session: Session;
  request: GraphQLRequest;
  deliver: Deliver;
  connection: Corkable | null;
  plan: Plan | null;
  /** Leaves its cohort; gives the cohort's values then (null: in none). */
  stop: () => (CohortValues | null)[] | null;
  ended: boolean;
  /** Counts plannings: a metadata change may plan it again before the previous planning is done. */
  generation: number;
}

export class Subscriptions {
  private readonly running = new Set<Subscription>();

  constructor(
    private readonly plans: PlanLookup,
    private readonly multiplexers: Multiplexers,
    snapshots: SnapshotBus,
    /** Runs a plan once (an asynchronous action's result: polled on this thread). */
    private readonly runOnce?: (plan: Plan, session: Session, variables: Record<string, unknown>) => Promise<string>,
  ) {
    snapshots.subscribe((s) => {
      const stale = staleness(s.changes);
      for (const sub of this.running) if (sub.plan && stale(sub.plan, sub.session.role)) void this.start(sub);
    });
  }

  /**
   * Starts a subscription; `deliver` gets each new result (or the request's error, once), written
   * on `connection` (a WebSocket's). Returns how to stop it.
   */
  async subscribe(session: Session, raw: unknown, deliver: Deliver, connection: Corkable | null = null): Promise<() => void> {
    let request: GraphQLRequest;
    try {
      // The document once, at the start: a persisted query's hash may leave the cache before the plan is made again.
      request = this.plans.withDocument(readRequest(raw, '$'));
    } catch (e) {
      deliver(toGraphQLReply(e).body, false);
      return () => {};
    }
    const sub: Subscription = { session, request, deliver, connection, plan: null, stop: () => null, ended: false, generation: 0 };
    this.running.add(sub);
    await this.start(sub);
    return () => {
      sub.ended = true;
      sub.stop();
      this.running.delete(sub);
    };
  }

  /** Plans the subscription (again) and moves it to the plan's multiplexed query. */
  private async start(sub: Subscription): Promise<void> {
    // A stream planned again goes on from its cursor.
    const before = sub.stop();
    sub.stop = () => before;
    sub.plan = null;
    const generation = ++sub.generation;
    try {
      const plan = await this.plans.plan(sub.session, sub.request);
      if (sub.ended || sub.generation !== generation) return;
      if (this.runOnce && plan.steps.some((s) => s.run.kind === 'action')) {
        const runOnce = this.runOnce;
        sub.plan = plan;
        const stop = pollActionResult(() => runOnce(plan, sub.session, sub.request.variables), sub.deliver, ACTION_RESULT_POLL_MS);
        sub.stop = () => (stop(), null);
        return;
      }
      const values = keepCursors(cohortValues(plan, { variables: sub.request.variables, session: sub.session.variables }), before);
      sub.plan = plan;
      sub.stop = this.multiplexers.subscribe(liveQuery(sub.session.role, plan.steps, plan.reads.tables, sub.request.operationName, plan.queryHash), values, sub.deliver, sub.connection);
    } catch (e) {
      if (!sub.ended && sub.generation === generation) sub.deliver(toGraphQLReply(e).body, false);
    }
  }

  close(): Promise<void> {
    this.running.clear();
    return this.multiplexers.close();
  }
}
