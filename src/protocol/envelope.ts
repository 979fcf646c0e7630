/** Request/reply and event framing shared by every actor (see actors/runtime.ts). */
import type { WireError } from '../errors/wire.js';

export interface RequestEnvelope<B = unknown> {
  kind: 'request';
  id: number;
  body: B;
}

export type ReplyEnvelope<B = unknown> =
  | { kind: 'reply'; id: number; ok: true; body: B }
  | { kind: 'reply'; id: number; ok: false; error: WireError };

export interface EventEnvelope<B = unknown> {
  kind: 'event';
  body: B;
}

export type Envelope = RequestEnvelope | ReplyEnvelope | EventEnvelope;

/**
 * The last message a worker gets (`Actor.stop`): it ends its own work by `deadline` (epoch ms),
 * the engine's graceful shutdown deadline for an actor whose work in flight may be let finish
 * (the trigger-delivery actor's deliveries), else now.
 */
export interface ShutdownMessage {
  type: 'shutdown';
  deadline: number;
}

/**
 * What crosses a thread boundary: the msgpack-encoded envelope, and for a message that carries
 * bulk bytes (an encoded snapshot: 40 MiB at 5,000 tables; a replace_metadata body), those
 * bytes beside it rather than copied into the envelope: transferred, or shared when they are
 * in shared memory.
 */
export type Frame = Uint8Array | { envelope: Uint8Array; attachment: Uint8Array };

/** What of an attachment can be handed over: bytes that own their whole buffer (shared memory is shared, not moved). */
export function transferable(attachment: Uint8Array | undefined): ArrayBuffer[] {
  return attachment && attachment.buffer instanceof ArrayBuffer && attachment.byteOffset === 0 && attachment.byteLength === attachment.buffer.byteLength ? [attachment.buffer] : [];
}

/** A frame's envelope bytes and attachment. */
export function unframe(frame: Frame): [Uint8Array, Uint8Array | undefined] {
  return frame instanceof Uint8Array ? [frame, undefined] : [frame.envelope, frame.attachment];
}
