/**
 * An allow-list entry's scope as the well-known console edits it: global, or a list of roles
 * (typed comma-separated here, sent as `{global: false, roles: [...]}`).
 */
import { Select, TextField } from '../../../ui/forms';

export interface ScopeInput {
  global: boolean;
  roles: string;
}

export type Scope = { global: true } | { global: false; roles: string[] };

export const scopeOf = (input: ScopeInput): Scope =>
  input.global
    ? { global: true }
    : {
        global: false,
        roles: input.roles
          .split(',')
          .map((r) => r.trim())
          .filter(Boolean),
      };

export const inputOf = (scope: { global: boolean; roles?: string[] } | undefined): ScopeInput => ({ global: scope?.global !== false, roles: (scope?.roles ?? []).join(', ') });

export const describeScope = (scope: { global: boolean; roles?: string[] } | undefined): string => (scope?.global === false ? `roles: ${(scope.roles ?? []).join(', ')}` : 'global');

/** `of`: what the scope belongs to, in the labels ("Scope of c"). */
export function ScopeFields({ of, value, onChange }: { of: string; value: ScopeInput; onChange: (v: ScopeInput) => void }) {
  return (
    <div className="row">
      <Select
        label={`Scope of ${of}`}
        value={value.global ? 'global' : 'roles'}
        options={[
          { value: 'global', label: 'Global (every role)' },
          { value: 'roles', label: 'Roles' },
        ]}
        onChange={(e) => onChange({ ...value, global: e.target.value === 'global' })}
      />
      {!value.global && <TextField label={`Roles of ${of} (comma-separated)`} value={value.roles} onChange={(e) => onChange({ ...value, roles: e.target.value })} />}
    </div>
  );
}
