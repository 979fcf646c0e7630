/**
 * The roles that may run an action (`create_action_permission`, `drop_action_permission`);
 * admin always may. As in the well-known console, every role the metadata knows is listed, to
 * allow or not, and a new role can be named. An action permission has no settings beside its role.
 */
import { useState, type FormEvent } from 'react';
import { rolesIn, useMetadata } from '../../api/metadata';
import { ErrorNote } from '../../ui/ErrorNote';
import { TextField } from '../../ui/forms';
import { useMetadataChange } from '../../ui/useMetadataChange';
import type { ActionEntry } from './types';

export function PermissionsTab({ entry }: { entry: ActionEntry }) {
  const { metadata } = useMetadata();
  const allowed = new Set((entry.permissions ?? []).map((p) => p.role));
  const roles = rolesIn(metadata);
  const [role, setRole] = useState('');
  const change = useMetadataChange({ action: entry.name });
  const allow = async (r: string) => (await change.run('create_action_permission', { role: r })) && setRole('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (role.trim()) void allow(role.trim());
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
                      <button type="button" className="danger" aria-label={`Remove ${r}`} disabled={change.busy} onClick={() => void change.run('drop_action_permission', { role: r })}>
                        Remove
                      </button>
                    </>
                  ) : (
                    <>
                      <span className="muted">not allowed</span>
                      <button type="button" className="secondary" aria-label={`Allow ${r}`} disabled={change.busy} onClick={() => void allow(r)}>
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
      <ErrorNote error={change.error} />
      <form className="row spaced" onSubmit={submit} aria-label="Allow a new role">
        <TextField label="New role" value={role} onChange={(e) => setRole(e.target.value)} />
        <button type="submit" disabled={change.busy}>
          Add permission
        </button>
      </form>
    </>
  );
}
