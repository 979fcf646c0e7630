/**
 * A remote schema's permissions by role, as the well-known console edits them: a role's
 * schema is an SDL document, prefilled with the remote's own SDL to cut down to what the role
 * may see (`@preset` on arguments fixes their values). Saving a new role is
 * `add_remote_schema_permissions`; saving an existing one drops and adds it in one bulk call
 * (the engine has no update); removing is `drop_remote_schema_permissions`.
 */
import { useCallback, useState, type FormEvent } from 'react';
import { metadata as callMetadata } from '../../api/client';
import { rolesIn, useMetadata } from '../../api/metadata';
import { ErrorNote } from '../../ui/ErrorNote';
import { TextArea, TextField } from '../../ui/forms';
import { useAction } from '../../ui/useAction';
import { useLoad } from '../../ui/useLoad';
import type { RemoteSchemaEntry } from './definition';
import { remoteSchemaOf, sdlOf } from './introspection';

interface Editing {
  role: string;
  schema: string;
  exists: boolean;
}

export function PermissionsTab({ entry }: { entry: RemoteSchemaEntry }) {
  const { metadata, refresh } = useMetadata();
  const remote = useLoad(async () => sdlOf(await remoteSchemaOf(entry.name)), [entry.name]);
  const [newRole, setNewRole] = useState('');
  const [editing, setEditing] = useState<Editing | null>(null);
  const permissions = entry.permissions ?? [];
  // As in the well-known console, every role the metadata knows is listed, with or without a permission here.
  const others = rolesIn(metadata).filter((r) => !permissions.some((p) => p.role === r));
  const save = useAction(
    useCallback(
      async (e: Editing) => {
        const add = { type: 'add_remote_schema_permissions', args: { remote_schema: entry.name, role: e.role, definition: { schema: e.schema } } };
        if (e.exists) await callMetadata('bulk', [{ type: 'drop_remote_schema_permissions', args: { remote_schema: entry.name, role: e.role } }, add]);
        else await callMetadata(add.type, add.args);
        await refresh();
        setEditing(null);
      },
      [entry.name, refresh],
    ),
  );
  const remove = useAction(
    useCallback(
      async (role: string) => {
        await callMetadata('drop_remote_schema_permissions', { remote_schema: entry.name, role });
        await refresh();
        setEditing((e) => (e?.role === role ? null : e));
      },
      [entry.name, refresh],
    ),
  );
  const edit = (e: Editing | null) => {
    save.setError(null);
    setEditing(e);
  };
  const startNew = (e: FormEvent) => {
    e.preventDefault();
    const role = newRole.trim();
    const existing = permissions.find((p) => p.role === role);
    if (role) edit({ role, schema: existing?.definition.schema ?? remote.data ?? '', exists: existing !== undefined });
    setNewRole('');
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (editing) void save.run(editing);
  };
  return (
    <>
      <ErrorNote error={remote.error} />
      <table aria-label="Roles">
        <thead>
          <tr>
            <th scope="col">Role</th>
            <th scope="col">Permission</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>admin</td>
            <td>the whole remote schema</td>
          </tr>
          {permissions.map((p) => (
            <tr key={p.role}>
              <td>{p.role}</td>
              <td>
                <div className="row">
                  <button type="button" className="secondary" aria-label={`Edit ${p.role}`} onClick={() => edit({ role: p.role, schema: p.definition.schema, exists: true })}>
                    Edit
                  </button>
                  <button type="button" className="danger" aria-label={`Remove ${p.role}`} disabled={remove.busy} onClick={() => void remove.run(p.role)}>
                    Remove
                  </button>
                </div>
              </td>
            </tr>
          ))}
          {others.map((r) => (
            <tr key={r}>
              <td>{r}</td>
              <td>
                <div className="row">
                  <span className="muted">none</span>
                  <button type="button" className="secondary" aria-label={`Add ${r}`} disabled={!remote.data} onClick={() => edit({ role: r, schema: remote.data ?? '', exists: false })}>
                    Add
                  </button>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ErrorNote error={remove.error} />
      <form className="row spaced" onSubmit={startNew} aria-label="A new role's permission">
        <TextField label="New role" value={newRole} onChange={(e) => setNewRole(e.target.value)} />
        <button type="submit" disabled={!remote.data}>
          Add permission
        </button>
      </form>
      {editing && (
        <form onSubmit={submit} aria-label={`Permission of ${editing.role}`}>
          <h2>Schema for role {editing.role}</h2>
          <p className="muted">The remote's SDL: remove the types, fields and arguments the role may not see.</p>
          <TextArea label={`Schema for role ${editing.role}`} rows={18} value={editing.schema} onChange={(e) => setEditing({ ...editing, schema: e.target.value })} />
          <ErrorNote error={save.error} />
          <div className="row">
            <button type="submit" disabled={save.busy}>
              {save.busy ? 'Saving…' : 'Save permission'}
            </button>
            <button type="button" className="secondary" onClick={() => edit(null)}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </>
  );
}
