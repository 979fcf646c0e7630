/**
 * The Data section's routes:
 * - `/data`: the sources;
 * - `/data/sql`: the SQL editor;
 * - `/data/<source>`: a source's schemas;
 * - `/data/<source>/schema/<schema>`: its tables (tracked, and untracked ones to track);
 * - `/data/<source>/schema/<schema>/tables/<table>/<tab>`: a table's page (`TablePage`);
 * - `/data/inherited-roles`: the inherited roles (`permissions/InheritedRolesPage`).
 */
import type { SectionPage } from '../../app/sections';
import { Page } from '../../ui/forms';
import { TablePage } from './TablePage';
import { InheritedRolesPage } from './permissions/InheritedRolesPage';

const DataSection: SectionPage = ({ rest }) => {
  const [source, kind, schema, tables, table, tab] = rest;
  if (source === 'inherited-roles' && !kind) return <InheritedRolesPage />;
  if (source && kind === 'schema' && schema && tables === 'tables' && table) return <TablePage source={source} table={{ schema, name: table }} tab={tab ?? 'browse'} />;
  return (
    <Page title="Data">
      <p>Not built yet.</p>
    </Page>
  );
};
export default DataSection;
