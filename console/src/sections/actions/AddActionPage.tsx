/** Creating an action from SDL: `set_custom_types` and `create_action` in one bulk call (form.ts). */
import { useCallback, useState, type FormEvent } from 'react';
import { useMetadata } from '../../api/metadata';
import { navigate, pathOf } from '../../app/router';
import { ErrorNote } from '../../ui/ErrorNote';
import { Page } from '../../ui/forms';
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
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void create.run();
  };
  return (
    <Page title="Create an action">
      <form onSubmit={submit} aria-label="Create an action">
        <ActionFields form={form} onChange={setForm} />
        <ErrorNote error={create.error} />
        <button type="submit" disabled={create.busy}>
          {create.busy ? 'Creating…' : 'Create action'}
        </button>
      </form>
    </Page>
  );
}
