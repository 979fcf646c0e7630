/** Adding a remote schema (`add_remote_schema`): the engine introspects it first and stores nothing when it cannot. */
import { useCallback, useState, type FormEvent } from 'react';
import { metadata as callMetadata } from '../../api/client';
import { useMetadata } from '../../api/metadata';
import { navigate, pathOf } from '../../app/router';
import { ErrorNote } from '../../ui/ErrorNote';
import { Page } from '../../ui/forms';
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
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void add.run();
  };
  return (
    <Page title="Add a remote schema">
      <form onSubmit={submit} aria-label="Add a remote schema">
        <RemoteSchemaFields form={form} onChange={setForm} />
        <ErrorNote error={add.error} />
        <button type="submit" disabled={add.busy}>
          {add.busy ? 'Adding…' : 'Add remote schema'}
        </button>
      </form>
    </Page>
  );
}
