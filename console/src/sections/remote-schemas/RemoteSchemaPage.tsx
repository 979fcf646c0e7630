/** One remote schema's page: its tabs, each in its own file. */
import { useMetadata } from '../../api/metadata';
import { Page } from '../../ui/forms';
import { Tabs } from '../../ui/Tabs';
import type { RemoteSchemaEntry } from './definition';
import { DetailsTab } from './DetailsTab';
import { BrowseTypesTab } from './BrowseTypesTab';
import { PermissionsTab } from './PermissionsTab';

const TABS = [
  { path: 'details', title: 'Details' },
  { path: 'types', title: 'Browse types' },
  { path: 'permissions', title: 'Permissions' },
] as const;

export function RemoteSchemaPage({ name, tab }: { name: string; tab: string }) {
  const { metadata } = useMetadata();
  if (!metadata) return <p className="loading">Loading…</p>;
  const entry = metadata.remote_schemas?.find((r) => r.name === name) as RemoteSchemaEntry | undefined;
  if (!entry)
    return (
      <Page title={name}>
        <p role="status">There is no remote schema {JSON.stringify(name)}.</p>
      </Page>
    );
  return (
    <Page title={name}>
      <Tabs label="Remote schema" base={['remote-schemas', name]} tabs={TABS} current={tab} />
      {tab === 'types' ? <BrowseTypesTab name={name} /> : tab === 'permissions' ? <PermissionsTab key={name} entry={entry} /> : <DetailsTab key={name} entry={entry} />}
    </Page>
  );
}
