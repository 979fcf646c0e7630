/** A tracked table's page: its tabs, each in its own folder. */
import { Link, pathOf } from '../../app/router';
import type { QualifiedTable } from '../../api/metadata';
import { Page } from '../../ui/forms';
import { PermissionsTab } from './permissions/PermissionsTab';

const TABS = [
  { path: 'browse', title: 'Browse rows' },
  { path: 'insert', title: 'Insert row' },
  { path: 'modify', title: 'Modify' },
  { path: 'relationships', title: 'Relationships' },
  { path: 'permissions', title: 'Permissions' },
] as const;

export function TablePage({ source, table, tab }: { source: string; table: QualifiedTable; tab: string }) {
  const base = ['data', source, 'schema', table.schema, 'tables', table.name];
  return (
    <Page title={`${table.schema}.${table.name}`}>
      <nav className="tabs" aria-label="Table">
        {TABS.map((t) => (
          <Link key={t.path} to={pathOf(...base, t.path)} aria-current={t.path === tab ? 'page' : undefined}>
            {t.title}
          </Link>
        ))}
      </nav>
      {tab === 'permissions' ? <PermissionsTab source={source} table={table} /> : <p>Not built yet.</p>}
    </Page>
  );
}
