/** `clear_metadata`, confirmed first (the well-known console asks before it). */
import { useState } from 'react';
import { metadata } from '../../../api/client';
import { useMetadata } from '../../../api/metadata';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { ErrorNote } from '../../../ui/ErrorNote';
import { useAction } from '../../../ui/useAction';

export function ClearMetadata() {
  const { refresh } = useMetadata();
  const [cleared, setCleared] = useState(false);
  const clearing = useAction(async () => {
    setCleared(false);
    await metadata('clear_metadata', {});
    await refresh();
    setCleared(true);
  });
  return (
    <div>
      <h2>Clear metadata</h2>
      <p>Removes every tracked table, relationship, permission, remote schema, action and trigger. The databases' data is kept.</p>
      <ConfirmButton label="Clear metadata" question="Clear all of the metadata? This cannot be undone." busy={clearing.busy} onConfirm={clearing.run} />
      {cleared && (
        <p className="notice" role="status">
          Metadata cleared.
        </p>
      )}
      <ErrorNote error={clearing.error} />
    </div>
  );
}
