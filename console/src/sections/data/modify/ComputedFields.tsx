/**
 * The table's computed fields (`pg_add_computed_field`, `pg_drop_computed_field`): each with its
 * function and "Remove"; a form adds one from a function of the source, as the well-known
 * console's "Computed fields" section does.
 */
import { useState, type FormEvent } from 'react';
import { tableKey, type QualifiedTable, type TableEntry } from '../../../api/metadata';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { ErrorNote } from '../../../ui/ErrorNote';
import { TextField } from '../../../ui/forms';
import { useMetadataChange } from '../../../ui/useMetadataChange';

interface Definition {
  function?: QualifiedTable | string;
  table_argument?: string;
}

const functionName = (d: unknown): string => {
  const f = (d as Definition | null)?.function;
  return typeof f === 'string' ? f : f ? tableKey(f) : '';
};

export function ComputedFields({ source, table, entry }: { source: string; table: QualifiedTable; entry: TableEntry }) {
  const [name, setName] = useState('');
  const [fn, setFn] = useState('');
  const [schema, setSchema] = useState(table.schema);
  const [tableArgument, setTableArgument] = useState('');
  const [comment, setComment] = useState('');
  const call = useMetadataChange({ source, table });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const definition: Definition = { function: { schema: schema.trim(), name: fn.trim() } };
    if (tableArgument.trim()) definition.table_argument = tableArgument.trim();
    const added = await call.run('pg_add_computed_field', { name: name.trim(), definition, ...(comment.trim() ? { comment: comment.trim() } : {}) });
    if (added) (setName(''), setFn(''), setTableArgument(''), setComment(''));
  };
  return (
    <section aria-label="Computed fields">
      <h3>Computed fields</h3>
      <ul>
        {(entry.computed_fields ?? []).map((c) => (
          <li key={c.name} className="row">
            <strong>{c.name}</strong> <span>{functionName(c.definition)}</span>
            <ConfirmButton label={`Remove ${c.name}`} question={`Remove the computed field ${c.name}?`} confirmLabel="Yes, remove" busy={call.busy} onConfirm={() => call.run('pg_drop_computed_field', { name: c.name })} />
          </li>
        ))}
      </ul>
      <form onSubmit={(e) => void submit(e)} aria-label="Add a computed field" className="row">
        <TextField label="Computed field name" value={name} onChange={(e) => setName(e.target.value)} required />
        <TextField label="Function schema" value={schema} onChange={(e) => setSchema(e.target.value)} required />
        <TextField label="Function name" value={fn} onChange={(e) => setFn(e.target.value)} required />
        <TextField label="Table argument" value={tableArgument} onChange={(e) => setTableArgument(e.target.value)} placeholder="the first argument" />
        <TextField label="Comment" value={comment} onChange={(e) => setComment(e.target.value)} />
        <button type="submit" disabled={call.busy}>
          Add computed field
        </button>
      </form>
      <ErrorNote error={call.error} />
    </section>
  );
}
