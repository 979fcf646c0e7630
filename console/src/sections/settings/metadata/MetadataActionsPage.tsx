/** Metadata actions: the resource version, then export, import, reload and clear. */
import { useMetadata } from '../../../api/metadata';
import { Page } from '../../../ui/forms';
import { ClearMetadata } from './ClearMetadata';
import { ExportMetadata, ImportMetadata } from './ExportImport';
import { ReloadMetadata } from './ReloadMetadata';

export function MetadataActionsPage() {
  const { resourceVersion } = useMetadata();
  return (
    <Page title="Metadata actions">
      <p>
        Resource version: <strong>{resourceVersion ?? '…'}</strong>
      </p>
      <ExportMetadata />
      <ImportMetadata />
      <ReloadMetadata />
      <ClearMetadata />
    </Page>
  );
}
