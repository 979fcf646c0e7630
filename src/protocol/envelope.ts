/** Request/reply and event framing shared by every actor (see actors/runtime.ts). */
export interface RequestEnvelope<B = unknown> {
  kind: 'request';
  id: number;
  body: B;
}

export type ReplyEnvelope<B = unknown> =
  | { kind: 'reply'; id: number; ok: true; body: B }
  | { kind: 'reply'; id: number; ok: false; error: string };

export interface EventEnvelope<B = unknown> {
  kind: 'event';
  body: B;
}

export type Envelope = RequestEnvelope | ReplyEnvelope | EventEnvelope;

/**
 * What crosses a thread boundary: the msgpack-encoded envelope, and for an event that carries
 * bulk bytes (an encoded snapshot: 40 MiB at 5,000 tables), those bytes beside it rather than
 * copied into the envelope: transferred, or shared when they are in shared memory.
 */
export type Frame = Uint8Array | { envelope: Uint8Array; attachment: Uint8Array };
