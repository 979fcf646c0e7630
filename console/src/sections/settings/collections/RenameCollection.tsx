/** `rename_query_collection`: the allow-list entry and the REST endpoints follow the new name. */
import { useState, type FormEvent } from 'react';
import { metadata } from '../../../api/client';
import { useMetadata } from '../../../api/metadata';
import { ErrorNote } from '../../../ui/ErrorNote';
import { TextField } from '../../../ui/forms';
import { useAction } from '../../../ui/useAction';

export function RenameCollection({ name }: { name: string }) {
  const { refresh } = useMetadata();
  const [editing, setEditing] = useState(false);
  const [newName, setNewName] = useState(name);
  const renaming = useAction(async () => {
    await metadata('rename_query_collection', { name, new_name: newName });
    await refresh();
  });
  if (!editing)
    return (
      <button type="button" className="secondary" onClick={() => setEditing(true)}>
        Rename
      </button>
    );
  const submit = (e: FormEvent) => (e.preventDefault(), void renaming.run());
  return (
    <form onSubmit={submit} aria-label={`Rename ${name}`} className="row">
      <TextField label={`New name of ${name}`} value={newName} required autoFocus onChange={(e) => setNewName(e.target.value)} />
      <button type="submit" disabled={renaming.busy}>
        Save name
      </button>
      <button type="button" className="secondary" onClick={() => setEditing(false)}>
        Cancel
      </button>
      <ErrorNote error={renaming.error} />
    </form>
  );
}
