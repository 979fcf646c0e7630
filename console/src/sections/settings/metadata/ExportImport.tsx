/**
 * Export and import of the metadata, as the well-known console does them: the export downloads
 * `metadata.json` (`export_metadata`); the import sends a chosen file's JSON to
 * `replace_metadata`, which changes nothing when it refuses the document (its error is shown
 * with the path it names).
 */
import { useId, useState, type ChangeEvent } from 'react';
import { ApiFailure, metadata } from '../../../api/client';
import { useMetadata } from '../../../api/metadata';
import { ErrorNote } from '../../../ui/ErrorNote';
import { useAction } from '../../../ui/useAction';
import { parseJson } from '../../../ui/jsonText';
import { downloadJson } from './download';
import { inconsistentObjectsOf, InconsistentObjectsTable } from './InconsistentObjects';

export function ExportMetadata() {
  const exporting = useAction(async () => downloadJson('metadata.json', await metadata('export_metadata', {})));
  return (
    <div>
      <h2>Export metadata</h2>
      <p>Downloads the metadata as one JSON file, which “Import metadata” (or <code>replace_metadata</code>) reads back.</p>
      <button type="button" disabled={exporting.busy} onClick={() => void exporting.run()}>
        Export metadata
      </button>
      <ErrorNote error={exporting.error} />
    </div>
  );
}

export function ImportMetadata() {
  const id = useId();
  const { refresh } = useMetadata();
  const [imported, setImported] = useState<string | null>(null);
  const importing = useAction(async (file: File) => {
    setImported(null);
    await metadata('replace_metadata', parseJson(await file.text(), file.name));
    await refresh();
    setImported(file.name);
  });
  const refusedBy = importing.error instanceof ApiFailure ? inconsistentObjectsOf(importing.error.internal) : [];
  const onChange = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    // Emptied so that choosing the same file again imports it again.
    e.target.value = '';
    if (file) void importing.run(file);
  };
  return (
    <div>
      <h2>Import metadata</h2>
      <p>Replaces the whole metadata with an exported file's. A file the engine refuses changes nothing.</p>
      <div className="field">
        <label htmlFor={id}>Metadata file to import</label>
        <input id={id} type="file" accept=".json,application/json" disabled={importing.busy} onChange={onChange} />
      </div>
      {imported && (
        <p className="notice" role="status">
          Metadata imported from {imported}.
        </p>
      )}
      <ErrorNote error={importing.error} />
      {refusedBy.length > 0 && <InconsistentObjectsTable label="Objects the imported metadata makes inconsistent" objects={refusedBy} />}
    </div>
  );
}
