/**
 * The Settings section, laid out as the well-known console's Settings and API tabs: a side
 * navigation (`SettingsNav`) and the page `rest[0]` names:
 * - `metadata-actions` (the default): export, import, reload, clear the metadata;
 * - `metadata-status`: the inconsistent objects;
 * - `query-collections`, `allow-list`;
 * - `rest-endpoints`, and `rest-endpoints/<name>` to try one;
 * - `tls-allowlist`, `api-limits`, `observability`;
 * - `about`: the engine's version and configuration.
 */
import type { SectionPage } from '../../app/sections';
import { AboutPage } from './AboutPage';
import { AllowListPage } from './collections/AllowListPage';
import { QueryCollectionsPage } from './collections/QueryCollectionsPage';
import { InconsistentMetadataPage } from './metadata/InconsistentMetadataPage';
import { MetadataActionsPage } from './metadata/MetadataActionsPage';
import { RestEndpointsPage } from './rest/RestEndpointsPage';
import { TryEndpointPage } from './rest/TryEndpointPage';
import { ApiLimitsPage } from './security/ApiLimitsPage';
import { ObservabilityPage } from './security/ObservabilityPage';
import { TlsAllowListPage } from './security/TlsAllowListPage';
import { SettingsNav } from './SettingsNav';

function SettingsPage({ page, detail }: { page: string; detail: string | undefined }) {
  switch (page) {
    case 'metadata-status':
      return <InconsistentMetadataPage />;
    case 'query-collections':
      return <QueryCollectionsPage />;
    case 'allow-list':
      return <AllowListPage />;
    case 'rest-endpoints':
      return detail ? <TryEndpointPage name={detail} /> : <RestEndpointsPage />;
    case 'tls-allowlist':
      return <TlsAllowListPage />;
    case 'api-limits':
      return <ApiLimitsPage />;
    case 'observability':
      return <ObservabilityPage />;
    case 'about':
      return <AboutPage />;
    default:
      return <MetadataActionsPage />;
  }
}

const SettingsSection: SectionPage = ({ rest }) => {
  const page = rest[0] ?? 'metadata-actions';
  return (
    <>
      <SettingsNav current={page} />
      <SettingsPage page={page} detail={rest[1]} />
    </>
  );
};
export default SettingsSection;
