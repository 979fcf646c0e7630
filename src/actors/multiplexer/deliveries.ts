/**
 * A multiplexer actor's results on their way to the front thread: a cohort's result goes to
 * its subscribers one call at a time (`Subscriber`), and crosses the thread once with their
 * ids; everything of one turn of the event loop goes in one message.
 */
import type { CohortValues } from '../../protocol/live.js';
import type { Delivery } from '../../protocol/messages.js';

export class DeliveryOutbox {
  private pending: Delivery[] = [];

  constructor(private readonly send: (deliveries: Delivery[]) => void) {}

  add(id: number, text: string, hash: string | null, values: (CohortValues | null)[] | null): void {
    const last = this.pending.at(-1);
    // A cohort's subscribers are called one after the other with the same result.
    if (last && last.text === text && last.hash === hash && (values === null ? last.values === null : last.values !== null && sameValues(last.values, values))) {
      last.ids.push(id);
      return;
    }
    if (this.pending.length === 0) setImmediate(() => this.flush());
    // A stream cohort's values array moves on with its cursor: what goes out is this batch's.
    this.pending.push({ ids: [id], text, hash, values: values && values.slice() });
  }

  private flush(): void {
    const deliveries = this.pending;
    this.pending = [];
    if (deliveries.length > 0) this.send(deliveries);
  }
}

const sameValues = (a: (CohortValues | null)[], b: (CohortValues | null)[]) => a.length === b.length && a.every((v, i) => v === b[i]);
