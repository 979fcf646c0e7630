/**
 * A form whose submit runs one call (a `useAction`): its fields, the call's failure, what the
 * call reported once done (`notice`), and the submit button, which reads `busyLabel` meanwhile.
 */
import type { FormEvent, ReactNode } from 'react';
import { ErrorNote } from './ErrorNote';

export function SubmitForm({
  label,
  call,
  submit,
  busyLabel = submit,
  notice,
  children,
}: {
  label: string;
  call: { run: () => unknown; busy: boolean; error: unknown };
  submit: string;
  busyLabel?: string;
  notice?: string;
  children: ReactNode;
}) {
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void call.run();
  };
  return (
    <form onSubmit={onSubmit} aria-label={label}>
      {children}
      <ErrorNote error={call.error} />
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      <button type="submit" disabled={call.busy}>
        {call.busy ? busyLabel : submit}
      </button>
    </form>
  );
}
