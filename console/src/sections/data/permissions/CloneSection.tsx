/**
 * "Clone permissions", as the well-known engine's console offers it: the permission being saved
 * is also given, the same, to the roles ticked here (for the same table and action), replacing
 * what they had.
 */
import { Checkbox } from '../../../ui/forms';

export function CloneSection({ action, roles, chosen, onChange }: { action: string; roles: string[]; chosen: string[]; onChange(next: string[]): void }) {
  if (roles.length === 0) return null;
  return (
    <fieldset className="permission-part">
      <legend>Clone permissions</legend>
      <p className="hint">Also give this {action} permission to:</p>
      <div className="row">
        {roles.map((r) => (
          <Checkbox key={r} label={r} checked={chosen.includes(r)} onChange={(e) => onChange(e.target.checked ? [...chosen, r] : chosen.filter((x) => x !== r))} />
        ))}
      </div>
    </fieldset>
  );
}
