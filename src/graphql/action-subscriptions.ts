/**
 * A subscription to an asynchronous action's result (`<action>(id)` on the subscription root):
 * not a live query of a source, so not the multiplexer actors' business. The front thread runs
 * the plan (a read of the action log through the trigger-delivery actor) every `intervalMs`
 * and sends the result when it changed: first at once, then when the call completes or fails.
 */
import type { Deliver } from '../actors/multiplexer/client.js';
import { toGraphQLReply } from '../errors/graphql-reply.js';

/** Starts polling; returns how to stop. */
export function pollActionResult(run: () => Promise<string>, deliver: Deliver, intervalMs: number): () => void {
  let last: string | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  const tick = async () => {
    let text: string;
    try {
      text = await run();
    } catch (e) {
      text = toGraphQLReply(e).body;
    }
    if (stopped) return;
    if (text !== last) {
      last = text;
      // The action's result as it is now: a newer one may replace it, as a live query's.
      deliver(text, true);
    }
    timer = setTimeout(() => void tick(), intervalMs);
  };
  void tick();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
