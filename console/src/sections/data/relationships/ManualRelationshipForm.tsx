/**
 * "Add a relationship manually", as the well-known console's form: its type, name, the table it
 * points to and the column pairs (`manual_configuration`).
 */
import { useState, type FormEvent } from 'react';
import { useMetadata, type QualifiedTable } from '../../../api/metadata';
import { ErrorNote } from '../../../ui/ErrorNote';
import { Select, TextField } from '../../../ui/forms';
import { useLoad } from '../../../ui/useLoad';
import { readColumns } from '../../../api/catalog';
import { useMetadataChange } from '../../../ui/useMetadataChange';
import { ColumnMapping, type Pair } from './ColumnMapping';
import { tableByKey, tableOptions, trackedTables } from './tableChoice';

export function ManualRelationshipForm({ source, table, columns }: { source: string; table: QualifiedTable; columns: string[] }) {
  const { metadata } = useMetadata();
  const tables = trackedTables(metadata, source);
  const [kind, setKind] = useState<'object' | 'array'>('object');
  const [name, setName] = useState('');
  const [remote, setRemote] = useState('');
  const [pairs, setPairs] = useState<Pair[]>([['', '']]);
  const remoteTable = tableByKey(tables, remote);
  const remoteColumns = useLoad(async () => (remoteTable ? (await readColumns(source, remoteTable)).map((c) => c.name) : []), [source, remote]);
  const add = useMetadataChange({ source, table });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!remoteTable) return;
    const column_mapping = Object.fromEntries(pairs.filter(([a, b]) => a && b));
    if (await add.run(`pg_create_${kind}_relationship`, { name: name.trim(), using: { manual_configuration: { remote_table: remoteTable, column_mapping } } })) (setName(''), setPairs([['', '']]));
  };
  return (
    <form onSubmit={(e) => void submit(e)} aria-label="Add a relationship manually">
      <h3>Add a relationship manually</h3>
      <div className="row">
        <Select label="Relationship type" value={kind} onChange={(e) => setKind(e.target.value as 'object' | 'array')} options={[{ value: 'object', label: 'Object relationship' }, { value: 'array', label: 'Array relationship' }]} />
        <TextField label="Relationship name" value={name} onChange={(e) => setName(e.target.value)} required />
        <Select label="Remote table" value={remote} onChange={(e) => setRemote(e.target.value)} options={tableOptions(tables)} required />
      </div>
      <ColumnMapping from={columns} to={remoteColumns.data ?? []} pairs={pairs} onChange={setPairs} />
      <ErrorNote error={remoteColumns.error} />
      <button type="submit" disabled={add.busy}>
        Create relationship
      </button>
      <ErrorNote error={add.error} />
    </form>
  );
}
