/** A modal dialog (the browser's own: focus kept inside, Escape closes it) with a title and a Close button. */
import { useEffect, useId, useRef, type ReactNode } from 'react';

export function Dialog({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  return (
    <dialog ref={ref} className="explorer-dialog" aria-labelledby={titleId} onClose={onClose}>
      <header className="page-header">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="secondary" onClick={onClose}>
          Close
        </button>
      </header>
      {children}
    </dialog>
  );
}
