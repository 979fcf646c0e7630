/** One action's page: its tabs, each in its own file. */
import { useMetadata } from '../../api/metadata';
import { Page } from '../../ui/forms';
import { Tabs } from '../../ui/Tabs';
import { ModifyTab } from './ModifyTab';
import { PermissionsTab } from './PermissionsTab';
import { RelationshipsTab } from './RelationshipsTab';
import type { ActionEntry, CustomTypes } from './types';

const TABS = [
  { path: 'modify', title: 'Modify' },
  { path: 'relationships', title: 'Relationships' },
  { path: 'permissions', title: 'Permissions' },
] as const;

export function ActionPage({ name, tab }: { name: string; tab: string }) {
  const { metadata } = useMetadata();
  if (!metadata) return <p className="loading">Loading…</p>;
  const entry = metadata.actions?.find((a) => a.name === name) as ActionEntry | undefined;
  const types = (metadata.custom_types ?? {}) as CustomTypes;
  if (!entry)
    return (
      <Page title={name}>
        <p role="status">There is no action {JSON.stringify(name)}.</p>
      </Page>
    );
  return (
    <Page title={name}>
      <Tabs label="Action" base={['actions', name]} tabs={TABS} current={tab} />
      {tab === 'permissions' ? (
        <PermissionsTab key={name} entry={entry} />
      ) : tab === 'relationships' ? (
        <RelationshipsTab key={name} entry={entry} types={types} />
      ) : (
        <ModifyTab key={name} entry={entry} types={types} />
      )}
    </Page>
  );
}
