/** Numbers of a retry configuration, each a labelled number field (a blank one is left to the engine's default). */
import { TextField } from '../../ui/forms';

export type RetryText = Record<string, string>;

/** A kind of trigger's retry fields and the engine's defaults (the well-known engine's), shown filled in. */
export interface RetryShape {
  fields: { key: string; label: string }[];
  defaults: Record<string, number>;
}

export const EVENT_TRIGGER_RETRY: RetryShape = {
  fields: [
    { key: 'num_retries', label: 'Number of retries' },
    { key: 'interval_sec', label: 'Retry interval (seconds)' },
    { key: 'timeout_sec', label: 'Timeout (seconds)' },
  ],
  defaults: { num_retries: 0, interval_sec: 10, timeout_sec: 60 },
};

export const SCHEDULED_RETRY: RetryShape = {
  fields: [
    { key: 'num_retries', label: 'Number of retries' },
    { key: 'retry_interval_seconds', label: 'Retry interval (seconds)' },
    { key: 'timeout_seconds', label: 'Timeout (seconds)' },
    { key: 'tolerance_seconds', label: 'Tolerance (seconds)' },
  ],
  defaults: { num_retries: 0, retry_interval_seconds: 10, timeout_seconds: 60, tolerance_seconds: 21600 },
};

export function RetryFields({ fields, value, onChange }: { fields: { key: string; label: string }[]; value: RetryText; onChange: (v: RetryText) => void }) {
  return (
    <fieldset>
      <legend>Retry configuration</legend>
      <div className="row">
        {fields.map((f) => (
          <TextField key={f.key} label={f.label} type="number" min={0} value={value[f.key] ?? ''} onChange={(e) => onChange({ ...value, [f.key]: e.target.value })} />
        ))}
      </div>
    </fieldset>
  );
}

/** The fields given as numbers (what is not a number is sent as given, for the engine to name). */
export const retryArg = (value: RetryText): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v.trim() !== '')
      .map(([k, v]) => [k, Number.isFinite(Number(v)) ? Number(v) : v]),
  );

export const retryText = (conf: unknown, keys: string[]): RetryText =>
  Object.fromEntries(keys.map((k) => [k, conf && typeof conf === 'object' && k in conf ? String((conf as Record<string, unknown>)[k]) : '']));
