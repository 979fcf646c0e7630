/**
 * The relationships of an action's output type to tracked tables, as the well-known console's
 * "Relationships" tab edits them: a name, object or array, the table (of any source) and the
 * output type's fields mapped to the table's columns. They belong to the custom object type,
 * so saving is `set_custom_types` with that type's relationships changed.
 */
import { useCallback, useState, type FormEvent } from 'react';
import { metadata as callMetadata } from '../../api/client';
import { tableKey, useMetadata } from '../../api/metadata';
import { ErrorNote } from '../../ui/ErrorNote';
import { Select, TextField } from '../../ui/forms';
import { useAction } from '../../ui/useAction';
import { namedType } from './sdl';
import type { ActionEntry, CustomRelationship, CustomTypes } from './types';

interface Draft {
  name: string;
  type: 'object' | 'array';
  /** `source/schema/table` */
  table: string;
  field: string;
  column: string;
}

const EMPTY: Draft = { name: '', type: 'object', table: '', field: '', column: '' };

export function RelationshipsTab({ entry, types }: { entry: ActionEntry; types: CustomTypes }) {
  const { metadata, refresh } = useMetadata();
  const output = types.objects?.find((o) => o.name === namedType(entry.definition.output_type));
  const tables = (metadata?.sources ?? []).flatMap((s) => s.tables.map((t) => ({ value: [s.name, t.table.schema, t.table.name].join('/'), label: `${s.name}: ${tableKey(t.table)}` })));
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const save = useAction(
    useCallback(
      async (relationships: CustomRelationship[]) => {
        if (!output) return false;
        const objects = (types.objects ?? []).map((o) => {
          if (o.name !== output.name) return o;
          const { relationships: _, ...rest } = o;
          return relationships.length ? { ...rest, relationships } : rest;
        });
        await callMetadata('set_custom_types', { ...types, objects });
        await refresh();
        return true;
      },
      [output, types, refresh],
    ),
  );
  if (!output) return <p>The output type {entry.definition.output_type} is not an object type: it has no relationships.</p>;
  const existing = output.relationships ?? [];
  const set = (patch: Partial<Draft>) => setDraft({ ...draft, ...patch });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const [source, schema, name] = draft.table.split('/');
    if (!source || !schema || !name) return;
    const added: CustomRelationship = { name: draft.name.trim(), type: draft.type, source, remote_table: { schema, name }, field_mapping: { [draft.field]: draft.column.trim() } };
    void save.run([...existing, added]).then((saved) => saved && setDraft(EMPTY));
  };
  return (
    <>
      <h2>Relationships of {output.name}</h2>
      <table aria-label="Relationships">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Type</th>
            <th scope="col">Table</th>
            <th scope="col">Mapping</th>
            <th scope="col">Manage</th>
          </tr>
        </thead>
        <tbody>
          {existing.map((r) => (
            <tr key={r.name}>
              <td>{r.name}</td>
              <td>{r.type}</td>
              <td>{`${r.source ?? 'default'}: ${r.remote_table.schema}.${r.remote_table.name}`}</td>
              <td>{Object.entries(r.field_mapping).map(([f, c]) => `${f} → ${c}`).join(', ')}</td>
              <td>
                <button type="button" className="danger" aria-label={`Remove ${r.name}`} disabled={save.busy} onClick={() => void save.run(existing.filter((x) => x.name !== r.name))}>
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form className="spaced" onSubmit={submit} aria-label="Add a relationship">
        <div className="row">
          <TextField label="Relationship name" value={draft.name} required onChange={(e) => set({ name: e.target.value })} />
          <Select label="Relationship type" value={draft.type} options={[{ value: 'object', label: 'Object' }, { value: 'array', label: 'Array' }]} onChange={(e) => set({ type: e.target.value === 'array' ? 'array' : 'object' })} />
          <Select label="Reference table" value={draft.table} required options={[{ value: '', label: 'Choose a table' }, ...tables]} onChange={(e) => set({ table: e.target.value })} />
        </div>
        <div className="row">
          <Select label="From field" value={draft.field} required options={[{ value: '', label: 'Choose a field' }, ...output.fields.map((f) => f.name)]} onChange={(e) => set({ field: e.target.value })} />
          <TextField label="To column" value={draft.column} required onChange={(e) => set({ column: e.target.value })} />
        </div>
        <button type="submit" disabled={save.busy}>
          Add relationship
        </button>
      </form>
      <ErrorNote error={save.error} />
    </>
  );
}
