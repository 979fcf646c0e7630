/** Creating an action from SDL: `set_custom_types` and `create_action` in one bulk call (form.ts). */
import { useCallback, useState } from 'react';
import { useMetadata } from '../../api/metadata';
import { navigate, pathOf } from '../../app/router';
import { Page } from '../../ui/forms';
import { SubmitForm } from '../../ui/SubmitForm';
import { useAction } from '../../ui/useAction';
import { ActionFields } from './ActionFields';
import { NEW_ACTION, saveAction } from './form';
import type { CustomTypes } from './types';

export function AddActionPage() {
  const { metadata, refresh } = useMetadata();
  const [form, setForm] = useState(NEW_ACTION);
  const create = useAction(
    useCallback(async () => {
      const name = await saveAction(form, (metadata?.custom_types ?? {}) as CustomTypes);
      await refresh();
      navigate(pathOf('actions', name, 'modify'));
    }, [form, metadata, refresh]),
  );
  return (
    <Page title="Create an action">
      <SubmitForm label="Create an action" call={create} submit="Create action" busyLabel="Creating…">
        <ActionFields form={form} onChange={setForm} />
      </SubmitForm>
    </Page>
  );
}
