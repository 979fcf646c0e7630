/**
 * `reload_metadata`, with the well-known console's two options (reload the sources, reload the
 * remote schemas); its answer says whether the metadata is still consistent.
 */
import { useState } from 'react';
import { metadata } from '../../../api/client';
import { useMetadata } from '../../../api/metadata';
import { Link } from '../../../app/router';
import { ErrorNote } from '../../../ui/ErrorNote';
import { Checkbox } from '../../../ui/forms';
import { useAction } from '../../../ui/useAction';

export function ReloadMetadata() {
  const { refresh } = useMetadata();
  const [sources, setSources] = useState(true);
  const [remoteSchemas, setRemoteSchemas] = useState(true);
  const [consistent, setConsistent] = useState<boolean | null>(null);
  const reloading = useAction(async () => {
    setConsistent(null);
    const r = await metadata<{ is_consistent?: boolean }>('reload_metadata', { reload_sources: sources, reload_remote_schemas: remoteSchemas });
    await refresh();
    setConsistent(r.is_consistent !== false);
  });
  return (
    <div>
      <h2>Reload metadata</h2>
      <p>Reads the databases' catalogs and the remote schemas again, after changes made outside the engine.</p>
      <Checkbox label="Reload all sources" checked={sources} onChange={(e) => setSources(e.target.checked)} />
      <Checkbox label="Reload all remote schemas" checked={remoteSchemas} onChange={(e) => setRemoteSchemas(e.target.checked)} />
      <button type="button" disabled={reloading.busy} onClick={() => void reloading.run()}>
        Reload metadata
      </button>
      {consistent === true && (
        <p className="notice" role="status">
          Metadata reloaded.
        </p>
      )}
      {consistent === false && (
        <p className="error-note" role="status">
          Metadata reloaded, with inconsistent objects: see <Link to="/settings/metadata-status">Inconsistent metadata</Link>.
        </p>
      )}
      <ErrorNote error={reloading.error} />
    </div>
  );
}
