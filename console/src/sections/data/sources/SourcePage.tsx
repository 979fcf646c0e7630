/** `/data/<source>`: the source's schemas (read from its catalog) and a form to create one. */
import { useState, type FormEvent } from 'react';
import { Link, pathOf } from '../../../app/router';
import { runSql } from '../../../api/client';
import { sourceOf, useMetadata } from '../../../api/metadata';
import { ErrorNote } from '../../../ui/ErrorNote';
import { Page, TextField } from '../../../ui/forms';
import { useAction } from '../../../ui/useAction';
import { useLoad } from '../../../ui/useLoad';
import { readSchemas } from '../../../api/catalog';
import { sqlIdent } from '../../../api/sql';

export function SourcePage({ source }: { source: string }) {
  const { metadata } = useMetadata();
  const entry = sourceOf(metadata, source);
  const schemas = useLoad(() => readSchemas(source), [source]);
  const [name, setName] = useState('');
  const create = useAction(async () => {
    await runSql(`CREATE SCHEMA ${sqlIdent(name.trim())}`, { source });
    setName('');
    await schemas.reload();
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void create.run();
  };
  return (
    <Page title={source}>
      {metadata && !entry && <ErrorNote error={`There is no source named ${source}.`} />}
      {entry && <p>Kind: {entry.kind}</p>}
      <h2>Schemas</h2>
      <ErrorNote error={schemas.error} />
      <ul aria-label="Schemas">
        {schemas.data?.map((s) => (
          <li key={s}>
            <Link to={pathOf('data', source, 'schema', s)}>{s}</Link>
          </li>
        ))}
      </ul>
      <form className="row" onSubmit={submit} aria-label="Create schema">
        <TextField label="Schema name" value={name} onChange={(e) => setName(e.target.value)} required />
        <button type="submit" disabled={create.busy}>
          Create schema
        </button>
      </form>
      <ErrorNote error={create.error} />
    </Page>
  );
}
