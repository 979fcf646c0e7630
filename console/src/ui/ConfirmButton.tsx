/**
 * A button for a change that cannot be undone: a click asks first, in the page rather than in a
 * browser dialog (the well-known console confirms before dropping or clearing), with any options
 * of the change (a "Cascade" checkbox) as `children`. The confirming button takes the focus;
 * cancelling gives it back to the button. `onConfirm` runs only when confirmed.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';

export function ConfirmButton({
  label,
  question,
  confirmLabel = `Yes, ${label.toLowerCase()}`,
  busy,
  children,
  onConfirm,
}: {
  label: string;
  question: string;
  confirmLabel?: string;
  /** The change is under way: neither button can be pressed. */
  busy?: boolean;
  children?: ReactNode;
  onConfirm: () => unknown;
}) {
  const [asking, setAsking] = useState(false);
  const [cancelled, setCancelled] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (cancelled && !asking) button.current?.focus();
  }, [asking, cancelled]);
  if (!asking)
    return (
      <button ref={button} type="button" className="danger" disabled={busy} onClick={() => (setAsking(true), setCancelled(false))}>
        {label}
      </button>
    );
  return (
    <span role="group" aria-label={`Confirm: ${label}`} className="row confirm">
      <span>{question}</span>
      {children}
      <button
        type="button"
        className="danger"
        autoFocus
        disabled={busy}
        onClick={async () => {
          await onConfirm();
          setAsking(false);
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" className="secondary" onClick={() => (setAsking(false), setCancelled(true))}>
        Cancel
      </button>
    </span>
  );
}
