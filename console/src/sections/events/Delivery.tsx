/**
 * How a webhook is called, asked alike by the event trigger, cron trigger and one-off event forms
 * (as the well-known engine's console asks it): retry configuration, headers and an optional
 * request transform; and those as the create commands take them.
 */
import type { ConfiguredHeader } from '../../api/metadata';
import { configuredHeaders, HeaderListEditor, headerRows, type HeaderRow } from '../../ui/HeaderListEditor';
import { jsonText, parseOptionalJson } from '../../ui/jsonText';
import { RequestTransformField } from './RequestTransformField';
import { RetryFields, retryArg, retryText, type RetryShape, type RetryText } from './RetryFields';

export interface Delivery {
  retry: RetryText;
  headers: HeaderRow[];
  transform: string;
}

/** The fields of a stored trigger (none: the retry defaults, no headers, no transform). */
export const deliveryOf = (retry: RetryShape, stored?: { retry_conf?: unknown; headers?: ConfiguredHeader[]; request_transform?: unknown }): Delivery => ({
  retry: retryText(stored?.retry_conf ?? retry.defaults, retry.fields.map((f) => f.key)),
  headers: headerRows(stored?.headers),
  transform: jsonText(stored?.request_transform),
});

/** `retry_conf`, `headers` and any `request_transform`; a transform that is not JSON throws, naming the field. */
export function deliveryArgs(d: Delivery): Record<string, unknown> {
  const requestTransform = parseOptionalJson(d.transform, 'Request transform');
  return { retry_conf: retryArg(d.retry), headers: configuredHeaders(d.headers), ...(requestTransform === undefined ? {} : { request_transform: requestTransform }) };
}

export function DeliveryFields({ retry, value, onChange }: { retry: RetryShape; value: Delivery; onChange: (value: Delivery) => void }) {
  return (
    <>
      <RetryFields fields={retry.fields} value={value.retry} onChange={(r) => onChange({ ...value, retry: r })} />
      <HeaderListEditor rows={value.headers} onChange={(headers) => onChange({ ...value, headers })} />
      <RequestTransformField value={value.transform} onChange={(transform) => onChange({ ...value, transform })} />
    </>
  );
}
