/**
 * The table's name, to change as the well-known console's "Modify" does (`ALTER … RENAME TO`
 * through `run_sql`: the engine carries the new name into the metadata); the page moves to the
 * table's new address.
 */
import { useState, type FormEvent } from 'react';
import { navigate, pathOf } from '../../../app/router';
import { runSql } from '../../../api/client';
import { useMetadata, type QualifiedTable } from '../../../api/metadata';
import { ErrorNote } from '../../../ui/ErrorNote';
import { TextField } from '../../../ui/forms';
import { useAction } from '../../../ui/useAction';
import { relationKeyword } from '../../../api/catalog';
import { sqlIdent, sqlTable } from '../../../api/sql';

export function TableName({ source, table }: { source: string; table: QualifiedTable }) {
  const { refresh } = useMetadata();
  const [name, setName] = useState(table.name);
  const rename = useAction(async () => {
    const next = name.trim();
    await runSql(`ALTER ${await relationKeyword(source, table)} ${sqlTable(table)} RENAME TO ${sqlIdent(next)}`, { source });
    await refresh();
    navigate(pathOf('data', source, 'schema', table.schema, 'tables', next, 'modify'));
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void rename.run();
  };
  return (
    <form className="row" onSubmit={submit} aria-label="Rename table">
      <TextField label="Table name" value={name} onChange={(e) => setName(e.target.value)} required />
      <button type="submit" disabled={rename.busy || name.trim() === table.name}>
        Rename table
      </button>
      <ErrorNote error={rename.error} />
    </form>
  );
}
