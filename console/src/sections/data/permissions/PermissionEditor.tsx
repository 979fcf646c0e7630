/**
 * One role's permission for one action on a table, edited as in the well-known engine's console:
 * its row checks, columns, presets, select options and backend-only flag, then "Save
 * permissions" (`pg_create_<action>_permission`; a permission that exists is dropped and
 * created again in one `bulk`, which the engine applies all or nothing) or "Delete permissions"
 * (`pg_drop_<action>_permission`); "Clone permissions" gives the same permission to other roles
 * in the same call. A refused call is shown with the engine's message and the
 * JSON path it names, and changes nothing.
 */
import { useState } from 'react';
import { metadata } from '../../../api/client';
import { useMetadata, type QualifiedTable, type TableEntry } from '../../../api/metadata';
import { ErrorNote } from '../../../ui/ErrorNote';
import { Checkbox } from '../../../ui/forms';
import { useAction } from '../../../ui/useAction';
import { ACTIONS, permissionOf, rowExpressionOf, type Action } from './model';
import { bodyOf, draftOf, type Draft } from './draft';
import type { Catalog } from './catalog';
import { RowCheckSection, type OtherCheck } from './RowCheckSection';
import { ColumnsSection } from './ColumnsSection';
import { PresetsSection } from './PresetsSection';
import { SelectOptions } from './SelectOptions';
import { CloneSection } from './CloneSection';
import type { BuilderScope } from './boolexp/scope';
import { ConfirmButton } from '../../../ui/ConfirmButton';

export interface EditorProps {
  source: string;
  table: QualifiedTable;
  entry: TableEntry | undefined;
  role: string;
  action: Action;
  /** The roles the permission may be cloned to (the grid's). */
  roles: string[];
  catalog: Catalog;
  scope: BuilderScope;
  onClose(): void;
  /** After a delete: the editor starts again from nothing. */
  onDeleted(): void;
}

const ROW_TITLES: Record<Action, string> = {
  insert: 'Row insert permissions',
  select: 'Row select permissions',
  update: 'Pre-update check',
  delete: 'Row delete permissions',
};

export function PermissionEditor({ source, table, entry, role, action, roles, catalog, scope, onClose, onDeleted }: EditorProps) {
  const { refresh } = useMetadata();
  const existing = permissionOf(entry, action, role);
  const columns = catalog.columnsOf(table).map((c) => c.name);
  // Only scalar computed fields are granted by hand: the engine derives those returning rows from their table's permissions.
  const computed = catalog.scalarComputedFields(entry).map((c) => c.name);
  const [draft, setDraft] = useState<Draft>(() => draftOf(existing, columns, computed));
  const [invalid, setInvalid] = useState<Record<string, boolean>>({});
  const [saved, setSaved] = useState<string | null>(null);
  const [cloneTo, setCloneTo] = useState<string[]>([]);
  const change = (p: Partial<Draft>) => {
    setSaved(null);
    setDraft((d) => ({ ...d, ...p }));
  };
  const validity = (part: string) => (valid: boolean) => setInvalid((v) => ({ ...v, [part]: !valid }));
  const others: OtherCheck[] = ACTIONS.filter((a) => a !== action).flatMap((a) => {
    const exp = rowExpressionOf(permissionOf(entry, a, role), a);
    return exp && Object.keys(exp).length > 0 ? [{ action: a, exp }] : [];
  });

  const save = useAction(async () => {
    const permission = bodyOf(draft, action);
    const calls = [role, ...cloneTo].flatMap((r) => {
      const target = { source, table, role: r };
      const had = permissionOf(entry, action, r);
      const create = { type: `pg_create_${action}_permission`, args: { ...target, permission, ...(had?.comment !== undefined ? { comment: had.comment } : {}) } };
      return had ? [{ type: `pg_drop_${action}_permission`, args: target }, create] : [create];
    });
    if (calls.length === 1) await metadata(calls[0]!.type, calls[0]!.args);
    else await metadata('bulk', calls);
    await refresh();
    setSaved(cloneTo.length ? `Saved the ${action} permission of ${role} and of ${cloneTo.join(', ')}.` : `Saved the ${action} permission of ${role}.`);
    setCloneTo([]);
  });
  const drop = useAction(async () => {
    await metadata(`pg_drop_${action}_permission`, { source, table, role });
    await refresh();
    onDeleted();
  });

  const rowPart = action === 'insert' ? 'check' : 'filter';
  return (
    <section className="permission-editor" aria-label={`${action} permission of ${role}`}>
      <div className="page-header">
        <h2>
          Role: {role} — action: {action}
        </h2>
        <button type="button" className="secondary" onClick={onClose}>
          Close
        </button>
      </div>
      <RowCheckSection
        title={ROW_TITLES[action]}
        value={draft[rowPart]}
        onChange={(v) => change(rowPart === 'check' ? { check: v } : { filter: v })}
        onValidity={validity(rowPart)}
        others={others}
        table={table}
        scope={scope}
      />
      {action === 'update' && (
        <RowCheckSection title="Post-update check" value={draft.check} onChange={(check) => change({ check })} onValidity={validity('check')} others={others} table={table} scope={scope} />
      )}
      {action !== 'delete' && <ColumnsSection title={`Column ${action} permissions`} names={columns} chosen={draft.columns} onChange={(c) => change({ columns: c })} />}
      {action === 'select' && computed.length > 0 && <ColumnsSection title="Computed fields" names={computed} chosen={draft.computedFields} onChange={(computedFields) => change({ computedFields })} />}
      {(action === 'insert' || action === 'update') && <PresetsSection columns={columns} presets={draft.presets} onChange={(presets) => change({ presets })} />}
      {action === 'select' && <SelectOptions draft={draft} onChange={change} />}
      {action !== 'select' && (
        <fieldset className="permission-part">
          <legend>Backend only</legend>
          <Checkbox label="Allow from backends only" checked={draft.backendOnly} onChange={(e) => change({ backendOnly: e.target.checked })} />
        </fieldset>
      )}
      <CloneSection action={action} roles={roles.filter((r) => r !== role)} chosen={cloneTo} onChange={setCloneTo} />
      <div className="row">
        <button type="button" disabled={save.busy || Object.values(invalid).some(Boolean)} onClick={() => void save.run()}>
          Save permissions
        </button>
        {existing && <ConfirmButton label="Delete permissions" question={`Delete the ${action} permission of ${role}?`} confirmLabel="Yes, delete" busy={drop.busy} onConfirm={() => drop.run()} />}
      </div>
      {saved && <p className="notice">{saved}</p>}
      <ErrorNote error={save.error} />
      <ErrorNote error={drop.error} />
    </section>
  );
}
