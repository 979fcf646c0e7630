/**
 * A multiplexer actor's outbox: the subscribers of one cohort's result cross the thread as one
 * delivery with their ids, everything of a turn of the event loop in one message, and a
 * stream cohort's values as they were when its batch was sent.
 */
import { describe, expect, it } from 'vitest';
import { DeliveryOutbox } from '../../src/actors/multiplexer/deliveries.js';
import type { CohortValues } from '../../src/protocol/live.js';
import type { Delivery } from '../../src/protocol/messages.js';

const turn = () => new Promise((r) => setImmediate(r));

describe('delivery outbox', () => {
  it('groups the subscribers of one result and sends a turn of the event loop at once', async () => {
    const sent: Delivery[][] = [];
    const outbox = new DeliveryOutbox((d) => sent.push(d));
    outbox.add(1, '{"data":1}', 'h1', null);
    outbox.add(2, '{"data":1}', 'h1', null);
    outbox.add(3, '{"data":2}', 'h2', null);
    outbox.add(4, '{"data":1}', 'h1', null);
    expect(sent).toEqual([]);
    await turn();
    expect(sent).toEqual([
      [
        { ids: [1, 2], text: '{"data":1}', hash: 'h1', values: null },
        { ids: [3], text: '{"data":2}', hash: 'h2', values: null },
        { ids: [4], text: '{"data":1}', hash: 'h1', values: null },
      ],
    ]);
    await turn();
    expect(sent).toHaveLength(1);
  });

  it("keeps a stream cohort's values as they were when its batch went", async () => {
    const sent: Delivery[][] = [];
    const outbox = new DeliveryOutbox((d) => sent.push(d));
    const first: CohortValues = { query: {}, session: {}, synthetic: [], cursor: '3' };
    const values: (CohortValues | null)[] = [first];
    outbox.add(1, '{"data":[3]}', null, values);
    outbox.add(2, '{"data":[3]}', null, values);
    // The cohort's cursor moves on before the message goes.
    values[0] = { ...first, cursor: '4' };
    outbox.add(1, '{"data":[4]}', null, values);
    await turn();
    expect(sent[0]!.map((d) => [d.ids, d.values![0]!.cursor])).toEqual([
      [[1, 2], '3'],
      [[1], '4'],
    ]);
  });
});
