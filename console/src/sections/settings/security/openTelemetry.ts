/**
 * The `opentelemetry` setting and the form's fields, both ways (docs/operations.md, "Traces").
 * The status is not a field: it is switched by `set_opentelemetry_status` and sent back as stored.
 */
import type { ConfiguredHeader } from '../../../api/metadata';
import { configuredHeaders, headerRows, type HeaderRow } from '../../../ui/HeaderListEditor';
import type { Pair } from '../PairRows';

export const DATA_TYPES = ['traces', 'metrics', 'logs'] as const;
export const PROPAGATORS = ['b3', 'tracecontext'] as const;

type DataType = (typeof DATA_TYPES)[number];

export interface OtelInput {
  dataTypes: string[];
  endpoints: Record<DataType, string>;
  batchSize: string;
  headers: HeaderRow[];
  attributes: Pair[];
  propagators: string[];
}

interface Stored {
  status?: string;
  data_types?: string[];
  exporter_otlp?: {
    otlp_traces_endpoint?: string;
    otlp_metrics_endpoint?: string;
    otlp_logs_endpoint?: string;
    headers?: ConfiguredHeader[];
    resource_attributes?: { name: string; value: string }[];
    traces_propagators?: string[];
  };
  batch_span_processor?: { max_export_batch_size?: number };
}

export function inputOf(value: Record<string, unknown> | undefined): OtelInput {
  const v = (value ?? {}) as Stored;
  const e = v.exporter_otlp ?? {};
  return {
    dataTypes: v.data_types ?? ['traces'],
    endpoints: { traces: e.otlp_traces_endpoint ?? '', metrics: e.otlp_metrics_endpoint ?? '', logs: e.otlp_logs_endpoint ?? '' },
    batchSize: String(v.batch_span_processor?.max_export_batch_size ?? 512),
    headers: headerRows(e.headers),
    attributes: e.resource_attributes ?? [],
    propagators: e.traces_propagators ?? ['b3'],
  };
}

/** `set_opentelemetry_config`'s arguments: the whole setting, with the stored status. */
export function documentOf(input: OtelInput, status: string): Record<string, unknown> {
  const endpoints = Object.fromEntries(DATA_TYPES.filter((t) => input.endpoints[t].trim() !== '').map((t) => [`otlp_${t}_endpoint`, input.endpoints[t].trim()]));
  return {
    status,
    data_types: input.dataTypes,
    exporter_otlp: {
      ...endpoints,
      protocol: 'http/protobuf',
      headers: configuredHeaders(input.headers),
      resource_attributes: input.attributes.filter((a) => a.name.trim() !== '').map((a) => ({ name: a.name.trim(), value: a.value })),
      traces_propagators: input.propagators,
    },
    batch_span_processor: { max_export_batch_size: Number(input.batchSize) },
  };
}
