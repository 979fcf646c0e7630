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
