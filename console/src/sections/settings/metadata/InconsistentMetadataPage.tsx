/**
 * The inconsistent objects (`get_inconsistent_metadata`): type, name, reason, and the
 * definition on demand; "Drop inconsistent objects" (`drop_inconsistent_metadata`) and
 * "Reload metadata" (`reload_metadata`), as on the well-known console's metadata status page.
 */
import { metadata } from '../../../api/client';
import { useMetadata } from '../../../api/metadata';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { ErrorNote } from '../../../ui/ErrorNote';
import { Page } from '../../../ui/forms';
import { useAction } from '../../../ui/useAction';
import { useLoad } from '../../../ui/useLoad';
import { InconsistentObjectsTable, type InconsistentObject } from './InconsistentObjects';

interface Status {
  is_consistent: boolean;
  inconsistent_objects: InconsistentObject[];
}

export function InconsistentMetadataPage() {
  const { refresh } = useMetadata();
  const status = useLoad(() => metadata<Status>('get_inconsistent_metadata', {}), []);
  const change = useAction(async (type: 'drop_inconsistent_metadata' | 'reload_metadata') => {
    await metadata(type, {});
    await Promise.all([refresh(), status.reload()]);
  });
  const objects = status.data?.inconsistent_objects ?? [];
  return (
    <Page
      title="Inconsistent metadata"
      actions={
        <div className="row">
          <button type="button" className="secondary" disabled={change.busy} onClick={() => void change.run('reload_metadata')}>
            Reload metadata
          </button>
          {objects.length > 0 && <ConfirmButton label="Drop inconsistent objects" question="Drop these objects from the metadata?" busy={change.busy} onConfirm={() => change.run('drop_inconsistent_metadata')} />}
        </div>
      }
    >
      <ErrorNote error={status.error ?? change.error} />
      {status.data && objects.length === 0 && (
        <p className="notice" role="status">
          The metadata is consistent.
        </p>
      )}
      {objects.length > 0 && <InconsistentObjectsTable label="Inconsistent objects" objects={objects} />}
    </Page>
  );
}
