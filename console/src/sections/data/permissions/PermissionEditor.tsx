/**
 * One role's permission for one action on a table, edited as in the well-known engine's console:
 * its row checks, columns, presets, select options and backend-only flag, then "Save
 * permissions" (`pg_create_<action>_permission`; a permission that exists is dropped and
 * created again in one `bulk`, which the engine applies all or nothing) or "Delete permissions"
 * (`pg_drop_<action>_permission`). A refused call is shown with the engine's message and the
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
import type { BuilderScope } from './boolexp/scope';

export interface EditorProps {
  source: string;
  table: QualifiedTable;
  entry: TableEntry | undefined;
  role: string;
  action: Action;
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

export function PermissionEditor({ source, table, entry, role, action, catalog, scope, onClose, onDeleted }: EditorProps) {
  const { refresh } = useMetadata();
  const existing = permissionOf(entry, action, role);
  const columns = catalog.columnsOf(table).map((c) => c.name);
  const computed = (entry?.computed_fields ?? []).map((c) => c.name);
  const [draft, setDraft] = useState<Draft>(() => draftOf(existing, columns, computed));
  const [invalid, setInvalid] = useState<Record<string, boolean>>({});
  const [saved, setSaved] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const change = (p: Partial<Draft>) => {
    setSaved(false);
    setDraft((d) => ({ ...d, ...p }));
  };
  const validity = (part: string) => (valid: boolean) => setInvalid((v) => ({ ...v, [part]: !valid }));
  const others: OtherCheck[] = ACTIONS.filter((a) => a !== action).flatMap((a) => {
    const exp = rowExpressionOf(permissionOf(entry, a, role), a);
    return exp && Object.keys(exp).length > 0 ? [{ action: a, exp }] : [];
  });

  const args = { source, table, role };
  const save = useAction(async () => {
    const create = { type: `pg_create_${action}_permission`, args: { ...args, permission: bodyOf(draft, action), ...(existing?.comment !== undefined ? { comment: existing.comment } : {}) } };
    if (existing) await metadata('bulk', [{ type: `pg_drop_${action}_permission`, args }, create]);
    else await metadata(create.type, create.args);
    await refresh();
    setSaved(true);
  });
  const drop = useAction(async () => {
    await metadata(`pg_drop_${action}_permission`, args);
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
      <div className="row">
        <button type="button" disabled={save.busy || Object.values(invalid).some(Boolean)} onClick={() => void save.run()}>
          Save permissions
        </button>
        {existing && !confirming && (
          <button type="button" className="danger" onClick={() => setConfirming(true)}>
            Delete permissions
          </button>
        )}
        {confirming && (
          <>
            <span>
              Delete the {action} permission of {role}?
            </span>
            <button type="button" className="danger" disabled={drop.busy} onClick={() => void drop.run()}>
              Yes, delete
            </button>
            <button type="button" className="secondary" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </>
        )}
      </div>
      {saved && <p className="notice">Saved the {action} permission of {role}.</p>}
      <ErrorNote error={save.error} />
      <ErrorNote error={drop.error} />
    </section>
  );
}
