/**
 * A button for a change that cannot be undone: it asks first, beside itself (the well-known
 * console confirms before clearing or dropping), and runs `onConfirm` only when confirmed. The
 * question takes the focus; cancelling gives it back to the button.
 */
import { useEffect, useRef, useState } from 'react';

export function ConfirmButton({ label, question, confirmLabel = label, disabled, onConfirm }: { label: string; question: string; confirmLabel?: string; disabled?: boolean; onConfirm: () => unknown }) {
  const [asking, setAsking] = useState(false);
  const [cancelled, setCancelled] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (cancelled && !asking) button.current?.focus();
  }, [asking, cancelled]);
  if (!asking)
    return (
      <button ref={button} type="button" className="danger" disabled={disabled} onClick={() => (setAsking(true), setCancelled(false))}>
        {label}
      </button>
    );
  return (
    <span role="group" aria-label={`Confirm: ${label}`} className="row confirm">
      <span>{question}</span>
      <button type="button" className="danger" autoFocus onClick={() => (setAsking(false), void onConfirm())}>
        {confirmLabel}
      </button>
      <button type="button" className="secondary" onClick={() => (setAsking(false), setCancelled(true))}>
        Cancel
      </button>
    </span>
  );
}
