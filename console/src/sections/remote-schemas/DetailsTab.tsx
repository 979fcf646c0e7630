/**
 * A remote schema's definition, to modify (`update_remote_schema`: the engine introspects the
 * server again and refuses a definition it cannot use), reload (`reload_remote_schema`: the
 * server's schema fetched again) or remove (`remove_remote_schema`, after a confirmation).
 */
import { useCallback, useState } from 'react';
import { metadata as callMetadata } from '../../api/client';
import { useMetadata } from '../../api/metadata';
import { navigate } from '../../app/router';
import { ErrorNote } from '../../ui/ErrorNote';
import { SubmitForm } from '../../ui/SubmitForm';
import { useAction } from '../../ui/useAction';
import { useMetadataChange } from '../../ui/useMetadataChange';
import { formOf, remoteSchemaArgs, type RemoteSchemaEntry } from './definition';
import { RemoteSchemaFields } from './RemoteSchemaFields';
import { ConfirmButton } from '../../ui/ConfirmButton';

export function DetailsTab({ entry }: { entry: RemoteSchemaEntry }) {
  const { refresh } = useMetadata();
  const [form, setForm] = useState(() => formOf(entry));
  const [notice, setNotice] = useState('');
  const done = useCallback(
    async (message: string) => {
      await refresh();
      setNotice(message);
    },
    [refresh],
  );
  const save = useAction(useCallback(async () => (setNotice(''), await callMetadata('update_remote_schema', remoteSchemaArgs(form, entry.definition)), await done('Saved.')), [form, entry.definition, done]));
  const reload = useAction(useCallback(async () => (await callMetadata('reload_remote_schema', { name: entry.name }), await done('Reloaded: the server was introspected again.')), [entry.name, done]));
  const remove = useMetadataChange();
  return (
    <>
      <SubmitForm label="Remote schema definition" call={save} submit="Save" busyLabel="Saving…">
        <RemoteSchemaFields form={form} onChange={setForm} nameFixed />
      </SubmitForm>
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      <div className="row actions-row">
        <button type="button" className="secondary" disabled={reload.busy} onClick={() => (setNotice(''), void reload.run())}>
          Reload
        </button>
        <ConfirmButton label="Remove" question={`Remove ${entry.name} and its permissions?`} busy={remove.busy} onConfirm={async () => (await remove.run('remove_remote_schema', { name: entry.name })) && navigate('/remote-schemas')} />
      </div>
      <ErrorNote error={reload.error ?? remove.error} />
    </>
  );
}
