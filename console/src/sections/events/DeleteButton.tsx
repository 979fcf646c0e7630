/** "Delete" of a trigger, asked to be confirmed first (as the well-known engine's console does); then back to the Events section. */
import { useMetadata } from '../../api/metadata';
import { navigate } from '../../app/router';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { ErrorNote } from '../../ui/ErrorNote';
import { useAction } from '../../ui/useAction';

export function DeleteButton({ what, remove }: { what: string; remove: () => Promise<unknown> }) {
  const { refresh } = useMetadata();
  const del = useAction(async () => {
    await remove();
    await refresh();
    navigate('/events');
  });
  return (
    <div className="danger-zone">
      <ErrorNote error={del.error} />
      <ConfirmButton label={`Delete ${what}`} question={`Delete ${what}?`} busy={del.busy} onConfirm={() => del.run()} />
    </div>
  );
}
