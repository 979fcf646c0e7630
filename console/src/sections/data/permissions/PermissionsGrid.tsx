/**
 * The role × action grid of a table's permissions, as the well-known engine's console draws it:
 * `admin` (always full access), every role with a permission on some table, the inherited roles,
 * and a row to type a new role in; each cell says full / partial / no access (or, for an
 * inherited role without a permission of its own, that it has its parents') and opens that
 * permission's editor: an inherited role's own permission overrides what it inherits.
 */
import { useState } from 'react';
import type { TableEntry } from '../../../api/metadata';
import { TextField } from '../../../ui/forms';
import { ACTIONS, accessOf, permissionOf, type Access, type Action } from './model';

/** What a cell says: an inherited role without a permission of its own has its parents'. */
type Shown = Access | 'inherited';
const SHOWN: Record<Shown, string> = { full: '✔ full', partial: '◐ partial', none: '✘ none', inherited: '↳ inherited' };

export interface Selected {
  role: string;
  action: Action;
}

export interface GridProps {
  entry: TableEntry | undefined;
  roles: string[];
  /** The inherited roles and the roles each inherits from. */
  inherited: Map<string, string[]>;
  columns: string[];
  selected: Selected | null;
  onSelect(s: Selected): void;
}

function Cell({ role, action, access, pressed, onSelect }: { role: string; action: Action; access: Shown; pressed: boolean; onSelect(s: Selected): void }) {
  return (
    <td>
      <button type="button" className={`access access-${access}`} aria-label={`Edit ${action} permission of ${role}`} aria-pressed={pressed} disabled={!role} onClick={() => onSelect({ role, action })}>
        {SHOWN[access]}
      </button>
    </td>
  );
}

export function PermissionsGrid({ entry, roles, inherited, columns, selected, onSelect }: GridProps) {
  const [newRole, setNewRole] = useState('');
  const typed = newRole.trim();
  // The chosen new role gets its own row (the tab lists the selected role), so the field empties.
  const openNew = (s: Selected) => {
    setNewRole('');
    onSelect(s);
  };
  const shown = (role: string, action: Action): Shown => {
    const permission = permissionOf(entry, action, role);
    return !permission && inherited.has(role) ? 'inherited' : accessOf(permission, action, columns);
  };
  const isSelected = (role: string, action: Action) => selected?.role === role && selected.action === action;
  return (
    <table className="permissions-grid" aria-label="Permissions">
      <thead>
        <tr>
          <th scope="col">Role</th>
          {ACTIONS.map((a) => (
            <th key={a} scope="col">
              {a}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        <tr>
          <th scope="row">admin</th>
          {ACTIONS.map((a) => (
            <td key={a} className="access access-full">
              {SHOWN.full}
            </td>
          ))}
        </tr>
        {roles.map((role) => (
          <tr key={role}>
            <th scope="row">
              {role}
              {inherited.has(role) && <div className="hint">inherits from {inherited.get(role)!.join(', ')}</div>}
            </th>
            {ACTIONS.map((a) => (
              <Cell key={a} role={role} action={a} access={shown(role, a)} pressed={isSelected(role, a)} onSelect={onSelect} />
            ))}
          </tr>
        ))}
        <tr>
          <th scope="row">
            <TextField label="New role" value={newRole} placeholder="Enter new role" onChange={(e) => setNewRole(e.target.value)} />
          </th>
          {ACTIONS.map((a) => (
            <Cell key={a} role={typed} action={a} access="none" pressed={false} onSelect={openNew} />
          ))}
        </tr>
      </tbody>
    </table>
  );
}
