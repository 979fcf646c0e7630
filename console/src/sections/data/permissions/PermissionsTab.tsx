/**
 * A table's permissions: the role × action grid, and below it the editor of the chosen cell.
 * The columns and foreign keys the editor offers are read from the database when the tab opens.
 */
import { useState } from 'react';
import { sourceOf, tableKey, tableOf, useMetadata, type QualifiedTable } from '../../../api/metadata';
import { ErrorNote } from '../../../ui/ErrorNote';
import { useCatalog } from './catalog';
import { tableRoles } from './model';
import { PermissionsGrid, type Selected } from './PermissionsGrid';
import { PermissionEditor } from './PermissionEditor';
import type { BuilderScope } from './boolexp/scope';

export function PermissionsTab({ source, table }: { source: string; table: QualifiedTable }) {
  const { metadata } = useMetadata();
  const catalog = useCatalog(source);
  const [selected, setSelected] = useState<Selected | null>(null);
  // Bumped after a delete, so the editor starts again from the (now absent) permission.
  const [generation, setGeneration] = useState(0);
  const entry = tableOf(metadata, source, table);
  if (catalog.error) return <ErrorNote error={catalog.error} />;
  if (!metadata || !catalog.data) return <p className="loading">Loading…</p>;
  if (!entry) return <p className="hint">{`${tableKey(table)} is not tracked in ${source}.`}</p>;
  const scope: BuilderScope = { catalog: catalog.data, tables: sourceOf(metadata, source)?.tables ?? [] };
  const inherited = new Map((metadata.inherited_roles ?? []).map((r) => [r.role_name, r.role_set]));
  const roles = [...new Set([...tableRoles(metadata), ...inherited.keys(), ...(selected ? [selected.role] : [])])].sort();
  return (
    <div className="permissions">
      <PermissionsGrid entry={entry} roles={roles} inherited={inherited} columns={catalog.data.columnsOf(table).map((c) => c.name)} selected={selected} onSelect={setSelected} />
      {selected && (
        <PermissionEditor
          // Another table (the tab stays mounted when the path changes) or a delete starts a fresh editor.
          key={`${source}/${table.schema}/${table.name}/${selected.role}/${selected.action}/${generation}`}
          source={source}
          table={table}
          entry={entry}
          role={selected.role}
          action={selected.action}
          roles={roles}
          catalog={catalog.data}
          scope={scope}
          onClose={() => setSelected(null)}
          onDeleted={() => setGeneration((g) => g + 1)}
        />
      )}
    </div>
  );
}
