/**
 * API limits (`set_api_limits`, `remove_api_limits`), as the well-known console's API limits
 * page sets them: depth, node, time, batch and rate limits, each with a global value and values
 * per role, and a switch to keep them stored but not applied. The admin role is never limited.
 */
import { useState, type FormEvent } from 'react';
import { useMetadata } from '../../../api/metadata';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { ErrorNote } from '../../../ui/ErrorNote';
import { Checkbox, Page } from '../../../ui/forms';
import { useMetadataChange } from '../../../ui/useMetadataChange';
import { documentOf, inputOf, NUMBER_LIMITS, RATE_LIMIT, type LimitKey, type LimitsInput } from './apiLimits';
import { LimitFields } from './LimitFields';

function LimitsForm({ stored }: { stored: Record<string, unknown> | undefined }) {
  const [input, setInput] = useState<LimitsInput>(() => inputOf(stored));
  const change = useMetadataChange();
  const setLimit = (key: LimitKey) => (v: LimitsInput['limits'][LimitKey]) => setInput((i) => ({ ...i, limits: { ...i.limits, [key]: v } }));
  const submit = (e: FormEvent) => (e.preventDefault(), void change.run('set_api_limits', documentOf(input)));
  return (
    <form onSubmit={submit} aria-label="API limits">
      <p>{stored ? 'Limits are set.' : 'No limits are set: every request is accepted.'}</p>
      <Checkbox label="Disabled (kept, not applied)" checked={input.disabled} onChange={(e) => setInput((i) => ({ ...i, disabled: e.target.checked }))} />
      {NUMBER_LIMITS.map((l) => (
        <LimitFields key={l.key} title={l.title} hint={l.hint} rate={false} value={input.limits[l.key]} onChange={setLimit(l.key)} />
      ))}
      <LimitFields title={RATE_LIMIT.title} hint={RATE_LIMIT.hint} rate value={input.limits.rate_limit} onChange={setLimit('rate_limit')} />
      <div className="row">
        <button type="submit" disabled={change.busy}>
          Save limits
        </button>
        {stored && <ConfirmButton label="Remove all limits" question="Remove every API limit?" busy={change.busy} onConfirm={() => change.run('remove_api_limits')} />}
      </div>
      <ErrorNote error={change.error} />
    </form>
  );
}

export function ApiLimitsPage() {
  const { metadata: m } = useMetadata();
  return (
    <Page title="API limits">
      {/* Keyed by the stored document: saved or changed elsewhere, the form shows what is stored. */}
      {m ? <LimitsForm key={JSON.stringify(m.api_limits ?? null)} stored={m.api_limits} /> : <p className="loading">Loading…</p>}
    </Page>
  );
}
