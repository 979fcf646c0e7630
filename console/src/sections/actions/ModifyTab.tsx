/**
 * An action's definition printed back as SDL (with the custom types it uses) to modify
 * (`update_action` after `set_custom_types`), or to delete (`drop_action`, after a confirmation).
 */
import { useCallback, useState } from 'react';
import { useMetadata } from '../../api/metadata';
import { navigate } from '../../app/router';
import { ErrorNote } from '../../ui/ErrorNote';
import { SubmitForm } from '../../ui/SubmitForm';
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
      setSaved(false);
      await saveAction(form, types, entry.name);
      await refresh();
      setSaved(true);
    }, [form, types, entry.name, refresh]),
  );
  const remove = useMetadataChange();
  return (
    <>
      <SubmitForm label="Modify the action" call={save} submit="Save" busyLabel="Saving…" notice={saved ? 'Saved.' : undefined}>
        <ActionFields form={form} onChange={setForm} />
      </SubmitForm>
      <div className="row actions-row">
        <ConfirmButton label="Delete action" question={`Delete the action ${entry.name}?`} confirmLabel="Yes, delete" busy={remove.busy} onConfirm={async () => (await remove.run('drop_action', { name: entry.name })) && navigate('/actions')} />
      </div>
      <ErrorNote error={remove.error} />
    </>
  );
}
