/**
 * A button for a change that cannot be undone: it asks first, beside itself (the well-known
 * console confirms before clearing or dropping), and runs `onConfirm` only when confirmed.
 */
import { useState } from 'react';

export function ConfirmButton({ label, question, confirmLabel = label, disabled, onConfirm }: { label: string; question: string; confirmLabel?: string; disabled?: boolean; onConfirm: () => unknown }) {
  const [asking, setAsking] = useState(false);
  if (!asking)
    return (
      <button type="button" className="danger" disabled={disabled} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  return (
    <span role="group" aria-label={`Confirm: ${label}`} className="row confirm">
      <span>{question}</span>
      <button type="button" className="danger" autoFocus onClick={() => (setAsking(false), void onConfirm())}>
        {confirmLabel}
      </button>
      <button type="button" className="secondary" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}
