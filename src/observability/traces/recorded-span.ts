/**
 * A span as this engine records it: a small object implementing both the OpenTelemetry API's
 * `Span` (what the code that traces calls) and the SDK's `ReadableSpan` (what the SDK's OTLP
 * exporter encodes), so that an ended span goes to the exporter as it is. The SDK's own span
 * cost about twice as much to make and to end (measured, bench/RESULTS.md), and tracing every
 * request must stay cheap; times are kept in milliseconds and turned into the SDK's
 * `[seconds, nanoseconds]` only when the exporter reads them.
 */
import { randomFillSync } from 'node:crypto';
import { SpanStatusCode, TraceFlags, type Attributes, type AttributeValue, type Exception, type HrTime, type Link, type Span, type SpanContext, type SpanKind, type SpanStatus, type TimeInput } from '@opentelemetry/api';
import type { InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace-base';

/** Epoch milliseconds, to the microsecond. */
const now = (): number => performance.timeOrigin + performance.now();

const hrTime = (ms: number): HrTime => {
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.round((ms - seconds * 1000) * 1e6)];
};

const msOf = (t: TimeInput | undefined): number => (t === undefined ? now() : typeof t === 'number' ? t : t instanceof Date ? t.getTime() : t[0] * 1000 + t[1] / 1e6);

const ID_POOL_BYTES = 4096;
const idPool = Buffer.alloc(ID_POOL_BYTES);
let idOffset = ID_POOL_BYTES;

/** `bytes` random bytes in hex (8 for a span id, 16 for a trace id), taken from a pool filled 4 KiB at a time. */
export function randomId(bytes: number): string {
  if (idOffset + bytes > ID_POOL_BYTES) {
    randomFillSync(idPool);
    idOffset = 0;
  }
  idOffset += bytes;
  return idPool.toString('hex', idOffset - bytes, idOffset);
}

/** Who an ended span goes to, and what it is exported with. */
export interface SpanOwner {
  readonly resource: Resource;
  readonly instrumentationScope: InstrumentationScope;
  ended(span: RecordedSpan): void;
}

export class RecordedSpan implements Span, ReadableSpan {
  private readonly context: SpanContext;
  readonly parentSpanContext: SpanContext | undefined;
  private readonly startMs: number;
  private endMs = 0;
  readonly attributes: Attributes;
  status: SpanStatus = { code: SpanStatusCode.UNSET };
  readonly events: TimedEvent[] = [];
  /** No span of this engine links to another trace. */
  readonly links: Link[] = [];
  ended = false;
  readonly droppedAttributesCount = 0;
  readonly droppedEventsCount = 0;
  readonly droppedLinksCount = 0;

  /** `parent`: the valid span context it continues, else it starts a trace. */
  constructor(
    public name: string,
    readonly kind: SpanKind,
    parent: SpanContext | undefined,
    attributes: Attributes | undefined,
    private readonly owner: SpanOwner,
  ) {
    this.startMs = now();
    this.attributes = attributes ? { ...attributes } : {};
    this.parentSpanContext = parent;
    this.context = { traceId: parent?.traceId ?? randomId(16), spanId: randomId(8), traceFlags: TraceFlags.SAMPLED, ...(parent?.traceState ? { traceState: parent.traceState } : {}) };
  }

  get resource(): Resource {
    return this.owner.resource;
  }

  get instrumentationScope(): InstrumentationScope {
    return this.owner.instrumentationScope;
  }

  get startTime(): HrTime {
    return hrTime(this.startMs);
  }

  get endTime(): HrTime {
    return hrTime(this.endMs);
  }

  get duration(): HrTime {
    return hrTime(this.endMs - this.startMs);
  }

  spanContext(): SpanContext {
    return this.context;
  }

  setAttribute(key: string, value: AttributeValue): this {
    if (!this.ended && value !== undefined) this.attributes[key] = value;
    return this;
  }

  setAttributes(attributes: Attributes): this {
    for (const [k, v] of Object.entries(attributes)) if (v !== undefined) this.setAttribute(k, v);
    return this;
  }

  addEvent(name: string, attributesOrTime?: Attributes | TimeInput, time?: TimeInput): this {
    if (this.ended) return this;
    const timed = typeof attributesOrTime === 'number' || attributesOrTime instanceof Date || Array.isArray(attributesOrTime);
    this.events.push({ name, time: hrTime(msOf(timed ? (attributesOrTime as TimeInput) : time)), attributes: timed || !attributesOrTime ? {} : (attributesOrTime as Attributes), droppedAttributesCount: 0 });
    return this;
  }

  addLink(_link: Link): this {
    return this;
  }

  addLinks(_links: Link[]): this {
    return this;
  }

  setStatus(status: SpanStatus): this {
    if (!this.ended) this.status = status;
    return this;
  }

  updateName(name: string): this {
    if (!this.ended) this.name = name;
    return this;
  }

  /** As the SDK records it: an `exception` event with the error's type and message. */
  recordException(exception: Exception, time?: TimeInput): void {
    const e = typeof exception === 'string' ? { message: exception } : exception;
    this.addEvent('exception', { 'exception.type': String(e.name ?? e.code ?? 'Error'), 'exception.message': String(e.message ?? '') }, time);
  }

  isRecording(): boolean {
    return !this.ended;
  }

  end(endTime?: TimeInput): void {
    if (this.ended) return;
    this.ended = true;
    this.endMs = msOf(endTime);
    this.owner.ended(this);
  }
}
