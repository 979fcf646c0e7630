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
import type { ReactNode } from 'react';
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

const PAGES: Record<string, (detail: string | undefined) => ReactNode> = {
  'metadata-actions': () => <MetadataActionsPage />,
  'metadata-status': () => <InconsistentMetadataPage />,
  'query-collections': () => <QueryCollectionsPage />,
  'allow-list': () => <AllowListPage />,
  'rest-endpoints': (name) => (name ? <TryEndpointPage key={name} name={name} /> : <RestEndpointsPage />),
  'tls-allowlist': () => <TlsAllowListPage />,
  'api-limits': () => <ApiLimitsPage />,
  observability: () => <ObservabilityPage />,
  about: () => <AboutPage />,
};

const SettingsSection: SectionPage = ({ rest }) => {
  // An unknown page shows the first one, as the section's own path does.
  const page = rest[0] !== undefined && Object.hasOwn(PAGES, rest[0]) ? rest[0] : 'metadata-actions';
  return (
    <>
      <SettingsNav current={page} />
      {PAGES[page]?.(rest[1])}
    </>
  );
};
export default SettingsSection;
