/** The worker-thread side of an actor: decode requests, run handlers, post replies and events. */
import { parentPort } from 'node:worker_threads';
import { decode, encode } from '../protocol/codec.js';
import { transferable, unframe, type EventEnvelope, type Frame, type ReplyEnvelope, type RequestEnvelope, type ShutdownMessage } from '../protocol/envelope.js';
import { collectGarbageWhenIdle } from '../util/collect-garbage.js';
import { errorToWire } from '../errors/wire.js';

const port = parentPort!;

function post(value: unknown, attachment?: Uint8Array): void {
  const bytes = encode(value);
  const frame: Frame = attachment ? { envelope: bytes, attachment } : bytes;
  port.postMessage(frame, [bytes.buffer as ArrayBuffer, ...transferable(attachment)]);
}

/** Emits an event; `attachment` travels beside its envelope (see `Frame`). */
export function publish<E>(event: E, attachment?: Uint8Array): void {
  post({ kind: 'event', body: event } satisfies EventEnvelope<E>, attachment);
}

/**
 * Serves requests with `handle`. `boot` runs first; the main thread hears `ready`
 * when it succeeds and `fatal` (then exit) when it fails.
 */
export function serveActor<Req, Told extends { type: string } = never>(opts: {
  boot(): Promise<void>;
  /** `attachment`: the bulk bytes sent beside the request, if any. */
  handle(req: Req, attachment?: Uint8Array): Promise<unknown>;
  /** One-way messages (`Actor.tell`). */
  told?(message: Told): void;
  /** `deadline`: when the worker's own work must be done (see `ShutdownMessage`). */
  shutdown(deadline: number): Promise<void>;
}): void {
  port.on('message', (frame: Frame) => {
    const [bytes, attachment] = unframe(frame);
    const env = decode<RequestEnvelope<Req> | EventEnvelope<Told | ShutdownMessage>>(bytes);
    if (env.kind === 'event') {
      if (env.body.type === 'shutdown') void opts.shutdown((env.body as ShutdownMessage).deadline).finally(() => process.exit(0));
      else opts.told?.(env.body as Told);
      return;
    }
    opts
      .handle(env.body, attachment)
      .then(
        (body) => post({ kind: 'reply', id: env.id, ok: true, body } satisfies ReplyEnvelope),
        (err: unknown) =>
          post({ kind: 'reply', id: env.id, ok: false, error: errorToWire(err) } satisfies ReplyEnvelope),
      )
      // A request that replaced the document leaves the old one behind as garbage.
      .finally(collectGarbageWhenIdle);
  });
  opts.boot().then(
    () => {
      post({ kind: 'ready' });
      collectGarbageWhenIdle();
    },
    (err: unknown) => {
      post({ kind: 'fatal', error: err instanceof Error ? err.message : String(err) });
      setTimeout(() => process.exit(1), 50);
    },
  );
}
