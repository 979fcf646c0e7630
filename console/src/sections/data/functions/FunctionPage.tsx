/**
 * `/data/<source>/schema/<schema>/functions/<function>`: a tracked function, as the well-known
 * console's function page shows it: its definition; its configuration (custom name and root
 * fields, session argument, exposed as query or mutation), saved by tracking it again with the
 * new configuration in one `bulk` (`pg_untrack_function` then `pg_track_function`: the engine
 * has no command that changes it in place, and none that sets a function's permissions, so a
 * function that has some is not re-tracked); "Untrack function"; "Delete function" (`DROP
 * FUNCTION` through `run_sql`, its metadata cascaded).
 */
import { useState, type FormEvent } from 'react';
import { navigate, pathOf } from '../../../app/router';
import { metadata as callMetadata, runSql } from '../../../api/client';
import { sameTable, sourceOf, tableKey, useMetadata, type QualifiedTable } from '../../../api/metadata';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { ErrorNote } from '../../../ui/ErrorNote';
import { Page, Select, TextField } from '../../../ui/forms';
import { useAction } from '../../../ui/useAction';
import { useLoad } from '../../../ui/useLoad';
import { readFunctionDefinitions } from '../../../api/catalog';
import { sqlTable } from '../../../api/sql';

interface Configuration {
  custom_name?: string;
  custom_root_fields?: { function?: string; function_aggregate?: string };
  session_argument?: string;
  exposed_as?: 'query' | 'mutation';
}

interface Entry {
  function: QualifiedTable;
  configuration?: Configuration;
  comment?: string;
  permissions?: unknown[];
}

function ConfigurationForm({ source, fn, entry }: { source: string; fn: QualifiedTable; entry: Entry }) {
  const { refresh } = useMetadata();
  const config = entry.configuration ?? {};
  const [customName, setCustomName] = useState(config.custom_name ?? '');
  const [rootField, setRootField] = useState(config.custom_root_fields?.function ?? '');
  const [aggregateField, setAggregateField] = useState(config.custom_root_fields?.function_aggregate ?? '');
  const [session, setSession] = useState(config.session_argument ?? '');
  const [exposedAs, setExposedAs] = useState(config.exposed_as ?? '');
  const [saved, setSaved] = useState(false);
  const save = useAction(async () => {
    setSaved(false);
    if (entry.permissions?.length) throw new Error('This function has permissions, which tracking it again would drop: change its configuration in the metadata document (Settings).');
    const configuration: Configuration = {};
    if (customName.trim()) configuration.custom_name = customName.trim();
    const roots = { ...(rootField.trim() ? { function: rootField.trim() } : {}), ...(aggregateField.trim() ? { function_aggregate: aggregateField.trim() } : {}) };
    if (Object.keys(roots).length > 0) configuration.custom_root_fields = roots;
    if (session.trim()) configuration.session_argument = session.trim();
    if (exposedAs === 'query' || exposedAs === 'mutation') configuration.exposed_as = exposedAs;
    await callMetadata('bulk', [
      { type: 'pg_untrack_function', args: { source, function: fn } },
      { type: 'pg_track_function', args: { source, function: fn, configuration, ...(entry.comment !== undefined ? { comment: entry.comment } : {}) } },
    ]);
    await refresh();
    setSaved(true);
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save.run();
  };
  return (
    <form onSubmit={submit} aria-label="Function configuration">
      <h3>Configuration</h3>
      <TextField label="Custom name" value={customName} onChange={(e) => setCustomName(e.target.value)} placeholder={fn.name} />
      <div className="row">
        <TextField label="Root field: function" value={rootField} onChange={(e) => setRootField(e.target.value)} placeholder="default" />
        <TextField label="Root field: function_aggregate" value={aggregateField} onChange={(e) => setAggregateField(e.target.value)} placeholder="default" />
      </div>
      <TextField label="Session argument" value={session} onChange={(e) => setSession(e.target.value)} placeholder="the argument that receives the session variables" />
      <Select label="Exposed as" value={exposedAs} onChange={(e) => setExposedAs(e.target.value as '' | 'query' | 'mutation')} options={[{ value: '', label: '(by volatility)' }, 'query', 'mutation']} />
      <button type="submit" disabled={save.busy}>
        Save configuration
      </button>
      {saved && (
        <p className="notice" role="status">
          Configuration saved.
        </p>
      )}
      <ErrorNote error={save.error} />
    </form>
  );
}

export function FunctionPage({ source, fn }: { source: string; fn: QualifiedTable }) {
  const { metadata, refresh } = useMetadata();
  const entry = (sourceOf(metadata, source)?.functions as Entry[] | undefined)?.find((f) => sameTable(f.function, fn));
  const definitions = useLoad(() => readFunctionDefinitions(source, fn), [source, fn.schema, fn.name]);
  const schemaPath = pathOf('data', source, 'schema', fn.schema);
  const untrack = useAction(async () => {
    await callMetadata('pg_untrack_function', { source, function: fn });
    await refresh();
    navigate(schemaPath);
  });
  const drop = useAction(async () => {
    await runSql(`DROP FUNCTION ${sqlTable(fn)}`, { source, cascade: true });
    await refresh();
    navigate(schemaPath);
  });
  return (
    <Page title={tableKey(fn)}>
      <h3>Definition</h3>
      <ErrorNote error={definitions.error} />
      {definitions.data?.map((d, i) => (
        <pre className="code" key={i}>
          {d}
        </pre>
      ))}
      {entry ? <ConfigurationForm source={source} fn={fn} entry={entry} /> : <p>This function is not tracked.</p>}
      <div className="row">
        {entry && <ConfirmButton label="Untrack function" question={`Untrack ${fn.name}?`} busy={untrack.busy} onConfirm={() => untrack.run()} />}
        <ConfirmButton label="Delete function" question={`Delete ${fn.name} for good?`} busy={drop.busy} onConfirm={() => drop.run()} />
      </div>
      <ErrorNote error={untrack.error} />
      <ErrorNote error={drop.error} />
    </Page>
  );
}
