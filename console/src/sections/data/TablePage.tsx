/** A tracked table's page: its tabs, each in its own folder. */
import { tableKey, type QualifiedTable } from '../../api/metadata';
import { Page } from '../../ui/forms';
import { Tabs } from '../../ui/Tabs';
import { PermissionsTab } from './permissions/PermissionsTab';
import { BrowseTab } from './browse/BrowseTab';
import { InsertTab } from './insert/InsertTab';
import { ModifyTab } from './modify/ModifyTab';
import { RelationshipsTab } from './relationships/RelationshipsTab';

const TABS = [
  { path: 'browse', title: 'Browse rows' },
  { path: 'insert', title: 'Insert row' },
  { path: 'modify', title: 'Modify' },
  { path: 'relationships', title: 'Relationships' },
  { path: 'permissions', title: 'Permissions' },
] as const;

export function TablePage({ source, table, tab }: { source: string; table: QualifiedTable; tab: string }) {
  const base = ['data', source, 'schema', table.schema, 'tables', table.name];
  // A tab's state belongs to its table: another table's page starts afresh.
  const key = base.join('/');
  return (
    <Page title={tableKey(table)}>
      <Tabs label="Table" base={base} tabs={TABS} current={tab} />
      {tab === 'browse' && <BrowseTab key={key} source={source} table={table} />}
      {tab === 'insert' && <InsertTab key={key} source={source} table={table} />}
      {tab === 'modify' && <ModifyTab key={key} source={source} table={table} />}
      {tab === 'relationships' && <RelationshipsTab key={key} source={source} table={table} />}
      {tab === 'permissions' && <PermissionsTab key={key} source={source} table={table} />}
    </Page>
  );
}
