/**
 * The table's object and array relationships, each to rename (`pg_rename_relationship`), comment
 * on (`pg_set_relationship_comment`: a blank comment removes it) or remove (`pg_drop_relationship`).
 */
import { useState, type FormEvent } from 'react';
import { qualifiedTable, shownTable, type QualifiedTable, type Relationship, type TableEntry } from '../../../api/metadata';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { ErrorNote } from '../../../ui/ErrorNote';
import { TextField } from '../../../ui/forms';
import { useMetadataChange } from '../../../ui/useMetadataChange';

const tableText = (t: unknown): string => {
  const table = qualifiedTable(t);
  return table ? shownTable(table) : '';
};
const columnsText = (o: { column?: string; columns?: string[] }): string => (o.columns ?? [o.column]).join(', ');

/** What a relationship joins on, in words. */
function describeUsing(using: Relationship['using']): string {
  const fk = using.foreign_key_constraint_on;
  if (typeof fk === 'string' || Array.isArray(fk)) return `foreign key on ${[fk].flat().join(', ')}`;
  if (fk && typeof fk === 'object') return `foreign key on ${tableText((fk as { table?: unknown }).table)} (${columnsText(fk as { column?: string; columns?: string[] })})`;
  const manual = using.manual_configuration as { remote_table?: unknown; column_mapping?: Record<string, string> } | undefined;
  if (manual) return `${tableText(manual.remote_table)}: ${Object.entries(manual.column_mapping ?? {}).map(([a, b]) => `${a} → ${b}`).join(', ')}`;
  return JSON.stringify(using);
}

function RelationshipRow({ source, table, kind, relationship }: { source: string; table: QualifiedTable; kind: 'object' | 'array'; relationship: Relationship }) {
  const [renaming, setRenaming] = useState(false);
  const [newName, setNewName] = useState(relationship.name);
  const [commenting, setCommenting] = useState(false);
  const [comment, setComment] = useState(relationship.comment ?? '');
  const call = useMetadataChange({ source, table });
  const rename = async (e: FormEvent) => {
    e.preventDefault();
    if (await call.run('pg_rename_relationship', { name: relationship.name, new_name: newName.trim() })) setRenaming(false);
  };
  const saveComment = async (e: FormEvent) => {
    e.preventDefault();
    if (await call.run('pg_set_relationship_comment', { relationship: relationship.name, ...(comment.trim() ? { comment: comment.trim() } : {}) })) setCommenting(false);
  };
  return (
    <tr>
      <td>
        {relationship.name}
        {relationship.comment && <div className="hint">{relationship.comment}</div>}
      </td>
      <td>{kind}</td>
      <td>{describeUsing(relationship.using)}</td>
      <td>
        <div className="row">
          <button type="button" className="secondary" aria-expanded={renaming} aria-label={`Rename ${relationship.name}`} onClick={() => setRenaming(!renaming)}>
            Rename
          </button>
          <button type="button" className="secondary" aria-expanded={commenting} aria-label={`Comment on ${relationship.name}`} onClick={() => setCommenting(!commenting)}>
            Comment
          </button>
          <ConfirmButton label={`Remove ${relationship.name}`} question={`Remove the relationship ${relationship.name}?`} confirmLabel="Yes, remove" busy={call.busy} onConfirm={() => call.run('pg_drop_relationship', { relationship: relationship.name })} />
        </div>
        {renaming && (
          <form className="row" onSubmit={(e) => void rename(e)} aria-label={`Rename ${relationship.name}`}>
            <TextField label={`New name of ${relationship.name}`} value={newName} onChange={(e) => setNewName(e.target.value)} required />
            <button type="submit" disabled={call.busy}>
              Save name
            </button>
          </form>
        )}
        {commenting && (
          <form className="row" onSubmit={(e) => void saveComment(e)} aria-label={`Comment on ${relationship.name}`}>
            <TextField label={`Comment of ${relationship.name}`} value={comment} onChange={(e) => setComment(e.target.value)} />
            <button type="submit" disabled={call.busy}>
              Save comment
            </button>
          </form>
        )}
        <ErrorNote error={call.error} />
      </td>
    </tr>
  );
}

export function ExistingRelationships({ source, table, entry }: { source: string; table: QualifiedTable; entry: TableEntry }) {
  const all = [...(entry.object_relationships ?? []).map((r) => ['object', r] as const), ...(entry.array_relationships ?? []).map((r) => ['array', r] as const)];
  if (all.length === 0) return <p>No relationships yet.</p>;
  return (
    <table aria-label="Relationships">
      <thead>
        <tr>
          <th>Name</th>
          <th>Type</th>
          <th>Using</th>
          <th>Actions</th>
        </tr>
      </thead>
      <tbody>
        {all.map(([kind, r]) => (
          <RelationshipRow key={r.name} source={source} table={table} kind={kind} relationship={r} />
        ))}
      </tbody>
    </table>
  );
}
