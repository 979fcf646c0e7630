/**
 * `/data`: the sources, as the well-known console's "Data Manager": each with its kind, a link,
 * and its connection settings to edit (`pg_update_source`), reload (`reload_metadata` of that
 * source) or remove (`pg_drop_source`, cascading on request); and a form to connect another
 * PostgreSQL database (`pg_add_source`). Another kind's source is removed with its own command
 * (`mssql_drop_source`…); its connection settings are not edited here.
 */
import { useState } from 'react';
import { Link, pathOf } from '../../../app/router';
import { useMetadata, type Source } from '../../../api/metadata';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { ErrorNote } from '../../../ui/ErrorNote';
import { Checkbox, Page } from '../../../ui/forms';
import { useMetadataChange } from '../../../ui/useMetadataChange';
import { SourceForm, type SourceSettings } from './SourceForm';

/** Where a PostgreSQL source connects: the environment variable's name, or its URL with the password hidden. */
function connectionText(configuration: Record<string, unknown>): string {
  const url = (configuration.connection_info as { database_url?: unknown } | undefined)?.database_url;
  if (url && typeof url === 'object' && typeof (url as { from_env?: unknown }).from_env === 'string') return `from ${(url as { from_env: string }).from_env}`;
  if (typeof url !== 'string') return '';
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '*****';
    return parsed.toString();
  } catch {
    return '';
  }
}

/** The prefix of a source kind's commands (`pg_drop_source`, `mssql_drop_source`). */
const PREFIX: Record<string, string> = { postgres: 'pg', citus: 'citus', mssql: 'mssql', bigquery: 'bigquery' };

function SourceRow({ source }: { source: Source }) {
  const prefix = PREFIX[source.kind] ?? source.kind;
  const [editing, setEditing] = useState(false);
  const [cascade, setCascade] = useState(false);
  const [notice, setNotice] = useState('');
  const call = useMetadataChange({});
  const run = async (type: string, args: Record<string, unknown>, done: string) => {
    setNotice('');
    const ok = await call.run(type, args);
    if (ok) setNotice(done);
    return ok;
  };
  return (
    <>
      <tr>
        <td>
          <Link to={pathOf('data', source.name)}>{source.name}</Link>
        </td>
        <td>{source.kind}</td>
        <td>{connectionText(source.configuration)}</td>
        <td>
          <div className="row">
            {source.kind === 'postgres' && (
              <button type="button" className="secondary" aria-expanded={editing} onClick={() => setEditing(!editing)}>
                Edit
              </button>
            )}
            <button type="button" className="secondary" disabled={call.busy} onClick={() => void run('reload_metadata', { reload_sources: [source.name] }, `Reloaded ${source.name}.`)}>
              Reload
            </button>
            <ConfirmButton label="Remove" question={`Remove the source ${source.name}?`} busy={call.busy} onConfirm={() => run(`${prefix}_drop_source`, { name: source.name, cascade }, '')}>
              <Checkbox label="Cascade" checked={cascade} onChange={(e) => setCascade(e.target.checked)} />
            </ConfirmButton>
          </div>
          {notice && <p className="notice">{notice}</p>}
          <ErrorNote error={call.error} />
        </td>
      </tr>
      {editing && (
        <tr>
          <td colSpan={4}>
            <SourceForm
              initial={{ name: source.name, configuration: source.configuration }}
              submitLabel="Update connection"
              busy={call.busy}
              onSubmit={async (s: SourceSettings) => {
                if (await run('pg_update_source', { name: source.name, configuration: s.configuration }, `Updated ${source.name}.`)) setEditing(false);
              }}
            />
          </td>
        </tr>
      )}
    </>
  );
}

export function SourcesPage() {
  const { metadata } = useMetadata();
  const add = useMetadataChange({});
  const [formKey, setFormKey] = useState(0);
  return (
    <Page title="Data Manager">
      <h2>Sources</h2>
      <table aria-label="Sources">
        <thead>
          <tr>
            <th>Name</th>
            <th>Kind</th>
            <th>Connection</th>
            <th>Actions</th>
          </tr>
        </thead>
        <tbody>
          {metadata?.sources.map((s) => (
            <SourceRow key={s.name} source={s} />
          ))}
        </tbody>
      </table>
      <h2>Connect a PostgreSQL database</h2>
      <SourceForm key={formKey} submitLabel="Connect Database" busy={add.busy} onSubmit={async (s: SourceSettings) => (await add.run('pg_add_source', { name: s.name, configuration: s.configuration })) && setFormKey((k) => k + 1)} />
      <ErrorNote error={add.error} />
    </Page>
  );
}
