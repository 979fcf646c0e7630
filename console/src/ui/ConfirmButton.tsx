/**
 * A destructive button that asks first: a click shows the question (and any options, e.g. a
 * "Cascade" checkbox, as `children`) with a confirming and a cancelling button, in the page
 * rather than in a browser dialog so that it can be read and used from the keyboard.
 */
import { useState, type ReactNode } from 'react';

export function ConfirmButton({ label, question, confirmLabel, onConfirm, busy, children }: { label: string; question: string; confirmLabel?: string; onConfirm: () => unknown; busy?: boolean; children?: ReactNode }) {
  const [asking, setAsking] = useState(false);
  if (!asking)
    return (
      <button type="button" className="danger" onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  return (
    <span className="confirm" role="group" aria-label={question}>
      <span>{question}</span>
      {children}
      <button
        type="button"
        className="danger"
        disabled={busy}
        onClick={async () => {
          await onConfirm();
          setAsking(false);
        }}
      >
        {confirmLabel ?? `Yes, ${label.toLowerCase()}`}
      </button>
      <button type="button" className="secondary" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}
