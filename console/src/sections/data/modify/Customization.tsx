/**
 * The table's GraphQL names, as the well-known console's "Custom GraphQL Root Fields" and column
 * "GraphQL field name": a custom table name, the root fields, and each column's custom name, set
 * together by `pg_set_table_customization` (which replaces the whole configuration; a blank field
 * keeps the default name).
 */
import { useState, type FormEvent } from 'react';
import type { QualifiedTable, TableEntry } from '../../../api/metadata';
import { ErrorNote } from '../../../ui/ErrorNote';
import { TextField } from '../../../ui/forms';
import type { Column } from '../../../api/catalog';
import { useMetadataChange } from '../../../ui/useMetadataChange';

const ROOT_FIELDS = ['select', 'select_by_pk', 'select_aggregate', 'select_stream', 'insert', 'insert_one', 'update', 'update_by_pk', 'update_many', 'delete', 'delete_by_pk'];

/** A root field is customized by a name, or by `{name, comment}`. */
const rootName = (v: unknown): string => (typeof v === 'string' ? v : v && typeof v === 'object' && typeof (v as { name?: unknown }).name === 'string' ? (v as { name: string }).name : '');

const nonBlank = (entries: [string, string][]) => Object.fromEntries(entries.filter(([, v]) => v.trim() !== '').map(([k, v]) => [k, v.trim()]));

export function Customization({ source, table, entry, columns }: { source: string; table: QualifiedTable; entry: TableEntry; columns: Column[] }) {
  const config = entry.configuration ?? {};
  const [customName, setCustomName] = useState(config.custom_name ?? '');
  const [roots, setRoots] = useState<Record<string, string>>(() => Object.fromEntries(ROOT_FIELDS.map((f) => [f, rootName(config.custom_root_fields?.[f])])));
  const [names, setNames] = useState<Record<string, string>>(() => Object.fromEntries(columns.map((c) => [c.name, config.column_config?.[c.name]?.custom_name ?? ''])));
  const [saved, setSaved] = useState(false);
  const save = useMetadataChange({ source, table });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    const configuration: Record<string, unknown> = {
      custom_root_fields: nonBlank(Object.entries(roots)),
      column_config: Object.fromEntries(Object.entries(nonBlank(Object.entries(names))).map(([c, n]) => [c, { custom_name: n }])),
    };
    if (customName.trim()) configuration.custom_name = customName.trim();
    if (await save.run('pg_set_table_customization', { configuration })) setSaved(true);
  };
  return (
    <form onSubmit={(e) => void submit(e)} aria-label="GraphQL customization">
      <h3>GraphQL names</h3>
      <TextField label="Custom table name" value={customName} onChange={(e) => setCustomName(e.target.value)} placeholder={table.name} />
      <fieldset>
        <legend>Custom root fields</legend>
        <div className="grid">
          {ROOT_FIELDS.map((f) => (
            <TextField key={f} label={f} value={roots[f] ?? ''} onChange={(e) => setRoots((r) => ({ ...r, [f]: e.target.value }))} placeholder="default" />
          ))}
        </div>
      </fieldset>
      <fieldset>
        <legend>Column GraphQL names</legend>
        <div className="grid">
          {columns.map((c) => (
            <TextField key={c.name} label={`GraphQL name of ${c.name}`} value={names[c.name] ?? ''} onChange={(e) => setNames((n) => ({ ...n, [c.name]: e.target.value }))} placeholder={c.name} />
          ))}
        </div>
      </fieldset>
      <button type="submit" disabled={save.busy}>
        Save customization
      </button>
      {saved && (
        <p className="notice" role="status">
          Customization saved.
        </p>
      )}
      <ErrorNote error={save.error} />
    </form>
  );
}
