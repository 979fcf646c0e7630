/**
 * An action's definition printed back as SDL (with the custom types it uses) to modify
 * (`update_action` after `set_custom_types`), or to delete (`drop_action`, after a confirmation).
 */
import { useCallback, useState, type FormEvent } from 'react';
import { useMetadata } from '../../api/metadata';
import { navigate } from '../../app/router';
import { ErrorNote } from '../../ui/ErrorNote';
import { useAction } from '../../ui/useAction';
import { useMetadataChange } from '../../ui/useMetadataChange';
import { ActionFields } from './ActionFields';
import { formOf, saveAction } from './form';
import type { ActionEntry, CustomTypes } from './types';
import { ConfirmButton } from '../../ui/ConfirmButton';

export function ModifyTab({ entry, types }: { entry: ActionEntry; types: CustomTypes }) {
  const { refresh } = useMetadata();
  const [form, setForm] = useState(() => formOf(entry, types));
  const [saved, setSaved] = useState(false);
  const save = useAction(
    useCallback(async () => {
      await saveAction(form, types, entry.name);
      await refresh();
      setSaved(true);
    }, [form, types, entry.name, refresh]),
  );
  const remove = useMetadataChange();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    void save.run();
  };
  return (
    <>
      <form onSubmit={submit} aria-label="Modify the action">
        <ActionFields form={form} onChange={setForm} />
        <ErrorNote error={save.error} />
        <button type="submit" disabled={save.busy}>
          {save.busy ? 'Saving…' : 'Save'}
        </button>
      </form>
      {saved && (
        <p className="notice" role="status">
          Saved.
        </p>
      )}
      <div className="row actions-row">
        <ConfirmButton label="Delete action" question={`Delete the action ${entry.name}?`} confirmLabel="Yes, delete" busy={remove.busy} onConfirm={async () => (await remove.run('drop_action', { name: entry.name })) && navigate('/actions')} />
      </div>
      <ErrorNote error={remove.error} />
    </>
  );
}
