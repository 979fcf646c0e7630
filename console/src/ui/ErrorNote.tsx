/** An API failure shown where it happened: the engine's message, its code and the JSON path it names. */
import { ApiFailure } from '../api/client';

/** A database error's own words, which the engine puts in `internal.error` beside "query execution failed". */
function databaseMessage(internal: unknown): string | null {
  const error = (internal as { error?: { message?: unknown; hint?: unknown } } | undefined)?.error;
  if (typeof error?.message !== 'string') return null;
  return typeof error.hint === 'string' ? `${error.message} (hint: ${error.hint})` : error.message;
}

export function ErrorNote({ error }: { error: unknown }) {
  if (error === null || error === undefined) return null;
  const failure = error instanceof ApiFailure ? error : null;
  return (
    <div role="alert" className="error-note">
      <strong>{failure ? failure.message : error instanceof Error ? error.message : String(error)}</strong>
      {failure && (
        <span className="error-detail">
          {' '}
          ({failure.code}
          {failure.path ? ` at ${failure.path}` : ''})
        </span>
      )}
      {failure && databaseMessage(failure.internal) && <div className="error-internal">{databaseMessage(failure.internal)}</div>}
    </div>
  );
}
