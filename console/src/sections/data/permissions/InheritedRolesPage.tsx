/**
 * Inherited roles (`inherited_roles` in the metadata): the list, a form to add one
 * (`add_inherited_role`: a name and the roles it inherits from) or edit one (the same call: a
 * role of the same name is replaced, as the engine does), and a button to remove each
 * (`drop_inherited_role`).
 */
import { useState, type FormEvent } from 'react';
import { metadata as callMetadata } from '../../../api/client';
import { rolesIn, useMetadata } from '../../../api/metadata';
import { ErrorNote } from '../../../ui/ErrorNote';
import { Checkbox, Page, TextField } from '../../../ui/forms';
import { useAction } from '../../../ui/useAction';

function RemoveButton({ name }: { name: string }) {
  const { refresh } = useMetadata();
  const remove = useAction(async () => {
    await callMetadata('drop_inherited_role', { role_name: name });
    await refresh();
  });
  return (
    <>
      <button type="button" className="danger" aria-label={`Remove inherited role ${name}`} disabled={remove.busy} onClick={() => void remove.run()}>
        Remove
      </button>
      <ErrorNote error={remove.error} />
    </>
  );
}

interface InheritedRole {
  role_name: string;
  role_set: string[];
}

/** `editing`: the role whose name and roles the form starts from (adding it again replaces it). */
function RoleForm({ roles, editing, onDone }: { roles: string[]; editing: InheritedRole | null; onDone(): void }) {
  const { refresh } = useMetadata();
  const [name, setName] = useState(editing?.role_name ?? '');
  const [parents, setParents] = useState<string[]>(editing?.role_set ?? []);
  const add = useAction(async () => {
    await callMetadata('add_inherited_role', { role_name: name.trim(), role_set: parents });
    await refresh();
    setName('');
    setParents([]);
    onDone();
  });
  const title = editing ? `Edit inherited role ${editing.role_name}` : 'Add an inherited role';
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void add.run();
  };
  return (
    <form onSubmit={submit} aria-label={title}>
      <h2>{title}</h2>
      <TextField label="Inherited role name" value={name} onChange={(e) => setName(e.target.value)} />
      <fieldset className="permission-part">
        <legend>Roles to inherit from</legend>
        {roles.length === 0 && <p className="hint">No role has a permission yet.</p>}
        <div className="row">
          {roles.map((r) => (
            <Checkbox key={r} label={r} checked={parents.includes(r)} onChange={(e) => setParents(e.target.checked ? [...parents, r] : parents.filter((p) => p !== r))} />
          ))}
        </div>
      </fieldset>
      <div className="row">
        <button type="submit" disabled={add.busy || name.trim() === ''}>
          {editing ? 'Save inherited role' : 'Add inherited role'}
        </button>
        {editing && (
          <button type="button" className="secondary" onClick={onDone}>
            Cancel
          </button>
        )}
      </div>
      <ErrorNote error={add.error} />
    </form>
  );
}

export function InheritedRolesPage() {
  const { metadata } = useMetadata();
  const [editing, setEditing] = useState<InheritedRole | null>(null);
  if (!metadata) return <p className="loading">Loading…</p>;
  const inherited = metadata.inherited_roles ?? [];
  return (
    <Page title="Inherited roles">
      <p className="hint">An inherited role has the permissions of all the roles it inherits from: rows any of them may see, columns any of them may read.</p>
      {inherited.length === 0 ? (
        <p>No inherited roles.</p>
      ) : (
        <table aria-label="Inherited roles">
          <thead>
            <tr>
              <th scope="col">Role</th>
              <th scope="col">Inherits from</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {inherited.map((r) => (
              <tr key={r.role_name}>
                <th scope="row">{r.role_name}</th>
                <td>{r.role_set.join(', ')}</td>
                <td>
                  <div className="row">
                    <button type="button" className="secondary" aria-label={`Edit inherited role ${r.role_name}`} onClick={() => setEditing(r)}>
                      Edit
                    </button>
                    <RemoveButton name={r.role_name} />
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <RoleForm key={editing?.role_name ?? ''} roles={rolesIn(metadata).filter((r) => r !== editing?.role_name)} editing={editing} onDone={() => setEditing(null)} />
    </Page>
  );
}
