/** An API failure shown where it happened: the engine's message, its code and the JSON path it names. */
import { ApiFailure } from '../api/client';

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
    </div>
  );
}
