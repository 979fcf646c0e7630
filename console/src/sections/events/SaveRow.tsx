/** The end of a trigger's form: the failure if any, "saved" once a modification is, and the submit button. */
import { ErrorNote } from '../../ui/ErrorNote';

export function SaveRow({ error, busy, saved, label }: { error: unknown; busy: boolean; saved?: string; label: string }) {
  return (
    <>
      <ErrorNote error={error} />
      {saved && (
        <p className="notice" role="status">
          {saved}
        </p>
      )}
      <button type="submit" disabled={busy}>
        {label}
      </button>
    </>
  );
}
