/** Adding a remote schema (`add_remote_schema`): the engine introspects it first and stores nothing when it cannot. */
import { useCallback, useState } from 'react';
import { metadata as callMetadata } from '../../api/client';
import { useMetadata } from '../../api/metadata';
import { navigate, pathOf } from '../../app/router';
import { Page } from '../../ui/forms';
import { SubmitForm } from '../../ui/SubmitForm';
import { useAction } from '../../ui/useAction';
import { EMPTY_FORM, remoteSchemaArgs } from './definition';
import { RemoteSchemaFields } from './RemoteSchemaFields';

export function AddRemoteSchemaPage() {
  const { refresh } = useMetadata();
  const [form, setForm] = useState(EMPTY_FORM);
  const add = useAction(
    useCallback(async () => {
      const args = remoteSchemaArgs(form);
      await callMetadata('add_remote_schema', args);
      await refresh();
      navigate(pathOf('remote-schemas', args.name, 'details'));
    }, [form, refresh]),
  );
  return (
    <Page title="Add a remote schema">
      <SubmitForm label="Add a remote schema" call={add} submit="Add remote schema" busyLabel="Adding…">
        <RemoteSchemaFields form={form} onChange={setForm} />
      </SubmitForm>
    </Page>
  );
}
