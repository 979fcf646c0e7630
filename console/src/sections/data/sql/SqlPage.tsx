/**
 * `/data/sql`: the SQL editor, as the well-known console's "Raw SQL": `run_sql` on a chosen
 * source, with "Track this" (track what the SQL created, in one `bulk` after it ran), "Cascade
 * metadata" (`cascade`) and "Read only" (`read_only`). Rows come back as a table; a command as a
 * notice; a refusal as the engine's error.
 */
import { useState, type FormEvent } from 'react';
import { metadata as callMetadata, runSql, type RunSqlResult } from '../../../api/client';
import { tableKey, useMetadata } from '../../../api/metadata';
import { ErrorNote } from '../../../ui/ErrorNote';
import { Checkbox, Page, Select, TextArea } from '../../../ui/forms';
import { useAction } from '../../../ui/useAction';
import { readFunctions } from '../../../api/catalog';
import { createdObjects, type Created } from './createdObjects';
import { ResultTable } from './ResultTable';

/**
 * What of `created` can be tracked: a function only when it returns rows (a trigger function or
 * one returning a scalar is no root field, and would make the whole `bulk` fail).
 */
async function trackable(source: string, created: Created[]): Promise<Created[]> {
  const schemas = [...new Set(created.filter((c) => c.kind === 'function').map((c) => c.name.schema))];
  const functions = new Map(await Promise.all(schemas.map(async (schema) => [schema, await readFunctions(source, schema)] as const)));
  return created.filter((c) => c.kind === 'table' || functions.get(c.name.schema)?.some((f) => f.name === c.name.name && f.trackable));
}

export function SqlPage() {
  const { metadata, refresh } = useMetadata();
  const [sql, setSql] = useState('');
  const [picked, setPicked] = useState<string | null>(null);
  // `default` when there is one (the well-known console's choice), else the first source.
  const names = (metadata?.sources ?? []).map((s) => s.name);
  const source = picked ?? (names.includes('default') ? 'default' : (names[0] ?? 'default'));
  const [track, setTrack] = useState(false);
  const [cascade, setCascade] = useState(false);
  const [readOnly, setReadOnly] = useState(false);
  const [result, setResult] = useState<{ sql: RunSqlResult; tracked: string[] } | null>(null);
  const run = useAction(async () => {
    setResult(null);
    const answer = await runSql(sql, { source, cascade, read_only: readOnly });
    const created = track ? await trackable(source, createdObjects(sql)) : [];
    if (created.length > 0) {
      const calls = created.map((c) => (c.kind === 'table' ? { type: 'pg_track_table', args: { source, table: c.name } } : { type: 'pg_track_function', args: { source, function: c.name } }));
      await callMetadata('bulk', calls);
    }
    setResult({ sql: answer, tracked: created.map((c) => tableKey(c.name)) });
    if (!readOnly) await refresh();
  });
  const change = (text: string) => {
    // The well-known console ticks "Track this" as soon as the SQL creates something.
    if (createdObjects(text).length > createdObjects(sql).length) setTrack(true);
    setSql(text);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run.run();
  };
  return (
    <Page title="Raw SQL">
      <form onSubmit={submit} aria-label="Run SQL">
        <TextArea label="SQL" rows={10} value={sql} onChange={(e) => change(e.target.value)} />
        <Select label="Source" value={source} onChange={(e) => setPicked(e.target.value)} options={names} />
        <div className="row">
          <Checkbox label="Track this" checked={track} onChange={(e) => setTrack(e.target.checked)} />
          <Checkbox label="Cascade metadata" checked={cascade} onChange={(e) => setCascade(e.target.checked)} />
          <Checkbox label="Read only" checked={readOnly} onChange={(e) => setReadOnly(e.target.checked)} />
        </div>
        <button type="submit" disabled={run.busy || sql.trim() === ''}>
          Run!
        </button>
      </form>
      <ErrorNote error={run.error} />
      {result && (
        <>
          <p className="notice" role="status">
            SQL executed!{result.tracked.length > 0 && ` Tracked: ${result.tracked.join(', ')}.`}
          </p>
          {result.sql.result_type === 'TuplesOk' && result.sql.result && <ResultTable rows={result.sql.result} />}
        </>
      )}
    </Page>
  );
}
