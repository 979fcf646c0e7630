/**
 * The roles that may run an action (`create_action_permission`, `drop_action_permission`);
 * admin always may. As in the well-known console, every role the metadata knows is listed, to
 * allow or not, and a new role can be named. An action permission has no settings beside its role.
 */
import { useCallback, useState, type FormEvent } from 'react';
import { metadata as callMetadata } from '../../api/client';
import { rolesIn, useMetadata } from '../../api/metadata';
import { ErrorNote } from '../../ui/ErrorNote';
import { TextField } from '../../ui/forms';
import { useAction } from '../../ui/useAction';
import type { ActionEntry } from './types';

export function PermissionsTab({ entry }: { entry: ActionEntry }) {
  const { metadata, refresh } = useMetadata();
  const allowed = new Set((entry.permissions ?? []).map((p) => p.role));
  const roles = rolesIn(metadata);
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
          {roles.map((r) => (
            <tr key={r}>
              <td>{r}</td>
              <td>
                <div className="row">
                  {allowed.has(r) ? (
                    <>
                      <span>allowed</span>
                      <button type="button" className="danger" aria-label={`Remove ${r}`} disabled={remove.busy} onClick={() => void remove.run(r)}>
                        Remove
                      </button>
                    </>
                  ) : (
                    <>
                      <span className="muted">not allowed</span>
                      <button type="button" className="secondary" aria-label={`Allow ${r}`} disabled={add.busy} onClick={() => void add.run(r)}>
                        Allow
                      </button>
                    </>
                  )}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ErrorNote error={remove.error ?? add.error} />
      <form className="row spaced" onSubmit={submit} aria-label="Allow a new role">
        <TextField label="New role" value={role} onChange={(e) => setRole(e.target.value)} />
        <button type="submit" disabled={add.busy}>
          Add permission
        </button>
      </form>
    </>
  );
}
