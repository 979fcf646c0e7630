/**
 * The Data section's routes, beside its side navigation (`SideNav`):
 * - `/data`: the sources (`sources/SourcesPage`);
 * - `/data/sql`: the SQL editor (`sql/SqlPage`);
 * - `/data/<source>`: a source's schemas (`sources/SourcePage`);
 * - `/data/<source>/schema/<schema>`: its tables (tracked, and untracked ones to track) (`schema/SchemaPage`);
 * - `/data/<source>/schema/<schema>/table/add`: a new table (`create/CreateTablePage`);
 * - `/data/<source>/schema/<schema>/tables/<table>/<tab>`: a table's page (`TablePage`);
 * - `/data/<source>/schema/<schema>/functions/<function>`: a function's page (`functions/FunctionPage`);
 * - `/data/inherited-roles`: the inherited roles (`permissions/InheritedRolesPage`).
 */
import type { SectionPage } from '../../app/sections';
import { TablePage } from './TablePage';
import { InheritedRolesPage } from './permissions/InheritedRolesPage';
import { SideNav } from './SideNav';
import { SourcesPage } from './sources/SourcesPage';
import { SourcePage } from './sources/SourcePage';
import { SchemaPage } from './schema/SchemaPage';
import { SqlPage } from './sql/SqlPage';
import { CreateTablePage } from './create/CreateTablePage';
import { FunctionPage } from './functions/FunctionPage';

function DataPage({ rest }: { rest: string[] }) {
  const [source, kind, schema, tables, table, tab] = rest;
  if (!source) return <SourcesPage />;
  if (source === 'inherited-roles' && !kind) return <InheritedRolesPage />;
  if (source === 'sql' && !kind) return <SqlPage />;
  if (source && kind === 'schema' && schema && tables === 'tables' && table) return <TablePage source={source} table={{ schema, name: table }} tab={tab ?? 'browse'} />;
  if (kind === 'schema' && schema && tables === 'functions' && table) return <FunctionPage key={`${source}/${schema}/${table}`} source={source} fn={{ schema, name: table }} />;
  if (kind === 'schema' && schema && tables === 'table' && table === 'add') return <CreateTablePage key={`${source}/${schema}`} source={source} schema={schema} />;
  if (kind === 'schema' && schema) return <SchemaPage key={`${source}/${schema}`} source={source} schema={schema} />;
  return <SourcePage key={source} source={source} />;
}

const DataSection: SectionPage = ({ rest }) => (
  <>
    <SideNav />
    <DataPage rest={rest} />
  </>
);
export default DataSection;
