/**
 * `/data/<source>/schema/<schema>`, as the well-known console's schema page: the tracked tables,
 * views and functions (each to untrack), the untracked ones (each to track, or all at once in
 * one `bulk`), and the relationships the foreign keys between tracked tables suggest (each to
 * add, or all); "Create Table" opens the new table's form.
 */
import { useState } from 'react';
import { Link, pathOf } from '../../../app/router';
import { metadata as callMetadata } from '../../../api/client';
import { sourceOf, tableKey, useMetadata, type QualifiedTable } from '../../../api/metadata';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { ErrorNote } from '../../../ui/ErrorNote';
import { Checkbox, Page } from '../../../ui/forms';
import { useAction } from '../../../ui/useAction';
import { useLoad } from '../../../ui/useLoad';
import { readColumnNames, readForeignKeys, readFunctions, readRelations } from '../../../api/catalog';
import { addSuggestion, suggestRelationships } from '../relationships/suggestions';
import { useMetadataChange } from '../../../ui/useMetadataChange';
import { TrackList, type Call } from './TrackList';

const bulk = (calls: Call[]) => (calls.length === 1 ? callMetadata(calls[0]!.type, calls[0]!.args) : callMetadata('bulk', calls));

function TrackedRow({ source, table }: { source: string; table: QualifiedTable }) {
  const [cascade, setCascade] = useState(false);
  const untrack = useMetadataChange({ source, table });
  return (
    <tr>
      <td>
        <Link to={pathOf('data', source, 'schema', table.schema, 'tables', table.name, 'browse')}>{table.name}</Link>
      </td>
      <td>
        <ConfirmButton label="Untrack" question={`Untrack ${table.name}?`} busy={untrack.busy} onConfirm={() => untrack.run('pg_untrack_table', { cascade })}>
          <Checkbox label="Cascade" checked={cascade} onChange={(e) => setCascade(e.target.checked)} />
        </ConfirmButton>
        <ErrorNote error={untrack.error} />
      </td>
    </tr>
  );
}

function TrackedFunctionRow({ source, fn }: { source: string; fn: QualifiedTable }) {
  const untrack = useMetadataChange({ source, function: fn });
  return (
    <tr>
      <td>
        <Link to={pathOf('data', source, 'schema', fn.schema, 'functions', fn.name)}>{fn.name}</Link>
      </td>
      <td>
        <ConfirmButton label={`Untrack ${fn.name}`} question={`Untrack the function ${fn.name}?`} confirmLabel="Yes, untrack" busy={untrack.busy} onConfirm={() => untrack.run('pg_untrack_function')} />
        <ErrorNote error={untrack.error} />
      </td>
    </tr>
  );
}

export function SchemaPage({ source, schema }: { source: string; schema: string }) {
  const { metadata, refresh } = useMetadata();
  const catalog = useLoad(async () => {
    const [relations, functions, fks, columns] = await Promise.all([readRelations(source, schema), readFunctions(source, schema), readForeignKeys(source), readColumnNames(source)]);
    return { relations, functions, fks, columns };
  }, [source, schema]);
  const entry = sourceOf(metadata, source);
  const tracked = (entry?.tables ?? []).filter((t) => t.table.schema === schema).map((t) => t.table);
  const trackedFunctions = (entry?.functions ?? []).filter((f) => f.function.schema === schema).map((f) => f.function.name);
  const untracked = (catalog.data?.relations ?? []).filter((r) => !tracked.some((t) => t.name === r.name));
  const untrackedFunctions = (catalog.data?.functions ?? []).filter((f) => f.trackable && !trackedFunctions.includes(f.name));
  const inSchema = (t: QualifiedTable) => t.schema === schema;
  const suggestions = catalog.data ? suggestRelationships(metadata, source, catalog.data.fks, catalog.data.columns).filter((s) => inSchema(s.table) || inSchema(s.to)) : [];
  const act = useAction(async (calls: Call[]) => {
    await bulk(calls);
    await refresh();
  });
  const trackTable = (name: string): Call => ({ type: 'pg_track_table', args: { source, table: { schema, name } } });
  const trackFunction = (name: string): Call => ({ type: 'pg_track_function', args: { source, function: { schema, name } } });
  return (
    <Page
      title={`Schema ${schema}`}
      actions={
        <div className="row">
          <Link to={pathOf('data', source)}>{source}</Link>
          <Link to={pathOf('data', source, 'schema', schema, 'table', 'add')}>Create Table</Link>
        </div>
      }
    >
      <ErrorNote error={catalog.error} />
      <ErrorNote error={act.error} />
      <h2>Tracked tables and views</h2>
      {tracked.length === 0 ? (
        <p>No tracked tables or views.</p>
      ) : (
        <table aria-label="Tracked tables">
          <tbody>
            {tracked.map((t) => (
              <TrackedRow key={t.name} source={source} table={t} />
            ))}
          </tbody>
        </table>
      )}
      {trackedFunctions.length > 0 && (
        <>
          <h2>Tracked functions</h2>
          <table aria-label="Tracked functions">
            <tbody>
              {trackedFunctions.map((name) => (
                <TrackedFunctionRow key={name} source={source} fn={{ schema, name }} />
              ))}
            </tbody>
          </table>
        </>
      )}
      <TrackList
        title="Untracked tables or views"
        allLabel="Track all tables"
        empty="There are no untracked tables or views."
        busy={act.busy}
        onTrack={act.run}
        items={untracked.map((r) => ({ key: r.name, cells: [r.name, r.kind], label: `Track ${r.name}`, call: trackTable(r.name) }))}
      />
      <TrackList
        title="Untracked foreign-key relationships"
        allLabel="Track all relationships"
        empty="There are no untracked relationships."
        busy={act.busy}
        onTrack={act.run}
        items={suggestions.map((s) => ({
          key: `${tableKey(s.table)}.${s.name}`,
          cells: [`${s.table.name} → ${s.kind} → ${s.to.name}`, s.name],
          label: `Track ${s.table.name}.${s.name}`,
          call: addSuggestion(source, s),
        }))}
      />
      <TrackList
        title="Untracked custom functions"
        allLabel="Track all functions"
        empty="There are no untracked functions."
        busy={act.busy}
        onTrack={act.run}
        items={untrackedFunctions.map((f) => ({ key: f.name, cells: [f.name], label: `Track ${f.name}`, call: trackFunction(f.name) }))}
      />
    </Page>
  );
}
