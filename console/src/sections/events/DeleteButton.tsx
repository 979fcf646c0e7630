/** "Delete" of a trigger, asked to be confirmed first (as the well-known engine's console does); then back to the Events section. */
import { useMetadata } from '../../api/metadata';
import { navigate } from '../../app/router';
import { ErrorNote } from '../../ui/ErrorNote';
import { useAction } from '../../ui/useAction';

export function DeleteButton({ what, remove }: { what: string; remove: () => Promise<unknown> }) {
  const { refresh } = useMetadata();
  const del = useAction(async () => {
    if (!window.confirm(`Delete ${what}?`)) return;
    await remove();
    await refresh();
    navigate('/events');
  });
  return (
    <div className="danger-zone">
      <ErrorNote error={del.error} />
      <button type="button" className="danger" onClick={() => void del.run()} disabled={del.busy}>
        Delete {what}
      </button>
    </div>
  );
}
