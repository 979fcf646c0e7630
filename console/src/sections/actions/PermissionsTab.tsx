/**
 * The roles that may run an action (`create_action_permission`, `drop_action_permission`);
 * admin always may. An action permission has no settings beside its role, as in the well-known
 * engine.
 */
import { useCallback, useState, type FormEvent } from 'react';
import { metadata as callMetadata } from '../../api/client';
import { useMetadata } from '../../api/metadata';
import { ErrorNote } from '../../ui/ErrorNote';
import { TextField } from '../../ui/forms';
import { useAction } from '../../ui/useAction';
import type { ActionEntry } from './types';

export function PermissionsTab({ entry }: { entry: ActionEntry }) {
  const { refresh } = useMetadata();
  const [role, setRole] = useState('');
  const add = useAction(
    useCallback(
      async (r: string) => {
        await callMetadata('create_action_permission', { action: entry.name, role: r });
        await refresh();
        setRole('');
      },
      [entry.name, refresh],
    ),
  );
  const remove = useAction(
    useCallback(
      async (r: string) => {
        await callMetadata('drop_action_permission', { action: entry.name, role: r });
        await refresh();
      },
      [entry.name, refresh],
    ),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (role.trim()) void add.run(role.trim());
  };
  return (
    <>
      <table aria-label="Roles">
        <thead>
          <tr>
            <th scope="col">Role</th>
            <th scope="col">May run {entry.name}</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>admin</td>
            <td>always</td>
          </tr>
          {(entry.permissions ?? []).map((p) => (
            <tr key={p.role}>
              <td>{p.role}</td>
              <td>
                <button type="button" className="danger" aria-label={`Remove ${p.role}`} disabled={remove.busy} onClick={() => void remove.run(p.role)}>
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ErrorNote error={remove.error} />
      <form className="row" onSubmit={submit} aria-label="Allow a role">
        <TextField label="Role" value={role} onChange={(e) => setRole(e.target.value)} />
        <button type="submit" disabled={add.busy}>
          Add permission
        </button>
      </form>
      <ErrorNote error={add.error} />
    </>
  );
}
