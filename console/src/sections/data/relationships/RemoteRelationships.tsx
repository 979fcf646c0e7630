/**
 * The table's remote relationships (`pg_create_remote_relationship`, `pg_delete_remote_relationship`),
 * as the well-known console's "Remote relationships": to a table of another (or the same) source,
 * by column pairs (`to_source`); or to a remote schema's field (`to_remote_schema`: the columns it
 * passes and the field with its arguments, `$column` naming a column, as JSON).
 */
import { useState, type FormEvent } from 'react';
import { shownTable, useMetadata, type QualifiedTable, type TableEntry } from '../../../api/metadata';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { ErrorNote } from '../../../ui/ErrorNote';
import { Select, TextArea, TextField } from '../../../ui/forms';
import { useLoad } from '../../../ui/useLoad';
import { readColumns } from '../../../api/catalog';
import { useMetadataChange } from '../../../ui/useMetadataChange';
import { ColumnMapping, type Pair } from './ColumnMapping';
import { tableByKey, tableOptions, trackedTables } from './tableChoice';

interface Definition {
  to_source?: { source: string; table: QualifiedTable; relationship_type: string; field_mapping: Record<string, string> };
  to_remote_schema?: { remote_schema: string; lhs_fields: string[]; remote_field: unknown };
}

function describe(d: unknown): string {
  const def = d as Definition;
  if (def.to_source) return `${def.to_source.relationship_type} → ${def.to_source.source}: ${shownTable(def.to_source.table)}`;
  if (def.to_remote_schema) return `remote schema ${def.to_remote_schema.remote_schema}`;
  return JSON.stringify(d);
}

function ToSourceFields({ columns, onChange }: { columns: string[]; onChange: (d: Definition | null) => void }) {
  const { metadata } = useMetadata();
  const [target, setTarget] = useState(metadata?.sources[0]?.name ?? '');
  const [remote, setRemote] = useState('');
  const [kind, setKind] = useState('object');
  const [pairs, setPairs] = useState<Pair[]>([['', '']]);
  const tables = trackedTables(metadata, target);
  const remoteTable = tableByKey(tables, remote);
  const remoteColumns = useLoad(async () => (remoteTable ? (await readColumns(target, remoteTable)).map((c) => c.name) : []), [target, remote]);
  const update = (next: { target?: string; remote?: string; kind?: string; pairs?: Pair[] }) => {
    const t = next.target ?? target;
    const table = tableByKey(trackedTables(metadata, t), next.remote ?? remote);
    onChange(table ? { to_source: { source: t, table, relationship_type: next.kind ?? kind, field_mapping: Object.fromEntries((next.pairs ?? pairs).filter(([a, b]) => a && b)) } } : null);
  };
  return (
    <>
      <div className="row">
        <Select label="Target source" value={target} onChange={(e) => (setTarget(e.target.value), setRemote(''), update({ target: e.target.value, remote: '' }))} options={(metadata?.sources ?? []).map((s) => s.name)} />
        <Select label="Target table" value={remote} onChange={(e) => (setRemote(e.target.value), update({ remote: e.target.value }))} options={tableOptions(tables)} />
        <Select label="Remote relationship type" value={kind} onChange={(e) => (setKind(e.target.value), update({ kind: e.target.value }))} options={['object', 'array']} />
      </div>
      <ColumnMapping from={columns} to={remoteColumns.data ?? []} pairs={pairs} onChange={(p) => (setPairs(p), update({ pairs: p }))} />
      <ErrorNote error={remoteColumns.error} />
    </>
  );
}

function ToRemoteSchemaFields({ onChange }: { onChange: (d: Definition | null) => void }) {
  const { metadata } = useMetadata();
  const schemas = (metadata?.remote_schemas ?? []).map((r) => r.name);
  const [schema, setSchema] = useState(schemas[0] ?? '');
  const [lhs, setLhs] = useState('');
  const [field, setField] = useState('');
  const update = (s: string, l: string, f: string) => {
    let remoteField: unknown;
    try {
      remoteField = JSON.parse(f);
    } catch {
      onChange(null);
      return;
    }
    onChange({ to_remote_schema: { remote_schema: s, lhs_fields: l.split(',').map((x) => x.trim()).filter(Boolean), remote_field: remoteField } });
  };
  return (
    <>
      <Select label="Remote schema" value={schema} onChange={(e) => (setSchema(e.target.value), update(e.target.value, lhs, field))} options={schemas} />
      <TextField label="Columns passed (comma-separated)" value={lhs} onChange={(e) => (setLhs(e.target.value), update(schema, e.target.value, field))} />
      <TextArea label="Remote field (JSON)" value={field} placeholder='{"user": {"arguments": {"id": "$author_id"}}}' onChange={(e) => (setField(e.target.value), update(schema, lhs, e.target.value))} />
    </>
  );
}

export function RemoteRelationships({ source, table, entry, columns }: { source: string; table: QualifiedTable; entry: TableEntry; columns: string[] }) {
  const [to, setTo] = useState<'source' | 'remote-schema'>('source');
  const [name, setName] = useState('');
  const [definition, setDefinition] = useState<Definition | null>(null);
  const [formKey, setFormKey] = useState(0);
  const call = useMetadataChange({ source, table });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!definition) {
      call.setError(new Error(to === 'source' ? 'Choose the target table.' : 'The remote field is not valid JSON.'));
      return;
    }
    if (await call.run('pg_create_remote_relationship', { name: name.trim(), definition })) (setName(''), setDefinition(null), setFormKey((k) => k + 1));
  };
  return (
    <section aria-label="Remote relationships">
      <h3>Remote relationships</h3>
      <ul>
        {(entry.remote_relationships ?? []).map((r) => (
          <li key={r.name} className="row">
            <strong>{r.name}</strong> <span>{describe(r.definition)}</span>
            <ConfirmButton label={`Remove ${r.name}`} question={`Remove the remote relationship ${r.name}?`} confirmLabel="Yes, remove" busy={call.busy} onConfirm={() => call.run('pg_delete_remote_relationship', { name: r.name })} />
          </li>
        ))}
      </ul>
      <form onSubmit={(e) => void submit(e)} aria-label="Add a remote relationship">
        <div className="row">
          <Select label="Remote relationship to" value={to} onChange={(e) => (setTo(e.target.value as 'source' | 'remote-schema'), setDefinition(null))} options={[{ value: 'source', label: 'a database table' }, { value: 'remote-schema', label: 'a remote schema' }]} />
          <TextField label="Remote relationship name" value={name} onChange={(e) => setName(e.target.value)} required />
        </div>
        {to === 'source' ? <ToSourceFields key={formKey} columns={columns} onChange={setDefinition} /> : <ToRemoteSchemaFields key={formKey} onChange={setDefinition} />}
        <button type="submit" disabled={call.busy}>
          Add remote relationship
        </button>
      </form>
      <ErrorNote error={call.error} />
    </section>
  );
}
