/**
 * A real OTLP/HTTP trace receiver for tests: node:http taking `POST /v1/traces` bodies
 * (`application/x-protobuf`) and decoding each `ExportTraceServiceRequest` with protobufjs and
 * the official protocol definitions (`otlp-proto/`), keeping every span with its ids as hex and
 * its attributes as plain values.
 */
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import protobuf from 'protobufjs';
import { TestServer } from './listen.js';

const PROTO_DIR = fileURLToPath(new URL('./otlp-proto/', import.meta.url));

function requestType(): protobuf.Type {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => join(PROTO_DIR, target);
  root.loadSync('opentelemetry/proto/collector/trace/v1/trace_service.proto', { keepCase: true });
  return root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');
}

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP's `SpanKind` number: 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
  /** The status's message (a failed span's error), empty when none. */
  statusMessage: string;
  events: { name: string; attributes: Record<string, unknown> }[];
}

type AnyValue = { string_value?: string; bool_value?: boolean; int_value?: string | number; double_value?: number };
type KeyValue = { key: string; value?: AnyValue };
const value = (v: AnyValue | undefined): unknown => v?.string_value ?? v?.bool_value ?? (v?.int_value !== undefined ? Number(v.int_value) : v?.double_value);
const attributes = (list: KeyValue[] | undefined) => Object.fromEntries((list ?? []).map((a) => [a.key, value(a.value)]));
const hex = (b: Uint8Array | undefined) => Buffer.from(b ?? []).toString('hex');

export class OtlpReceiver extends TestServer {
  readonly spans: ReceivedSpan[] = [];
  /** Export requests received (each a batch). */
  requests = 0;
  /** The last export request's headers. */
  headers: http.IncomingHttpHeaders = {};
  private readonly type = requestType();

  async start(port = this.port): Promise<this> {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.requests++;
        this.headers = req.headers;
        const decoded = this.type.toObject(this.type.decode(Buffer.concat(chunks)), { longs: String, defaults: false }) as {
          resource_spans?: { resource?: { attributes?: KeyValue[] }; scope_spans?: { spans?: any[] }[] }[];
        };
        for (const rs of decoded.resource_spans ?? []) {
          const resource = attributes(rs.resource?.attributes);
          for (const ss of rs.scope_spans ?? []) {
            for (const s of ss.spans ?? []) {
              this.spans.push({ traceId: hex(s.trace_id), spanId: hex(s.span_id), parentSpanId: hex(s.parent_span_id), name: s.name, kind: s.kind ?? 0, attributes: attributes(s.attributes), resource, statusMessage: s.status?.message ?? '', events: (s.events ?? []).map((e: { name: string; attributes?: KeyValue[] }) => ({ name: e.name, attributes: attributes(e.attributes) })) });
            }
          }
        }
        res.writeHead(200, { 'content-type': 'application/x-protobuf' });
        res.end();
      });
    });
    await this.serve(server, port);
    return this;
  }

  url(): string {
    return `http://127.0.0.1:${this.port}/v1/traces`;
  }

  /** The spans of one trace. */
  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((s) => s.traceId === traceId);
  }
}
