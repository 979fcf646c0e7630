/**
 * The Data section's side navigation, as the well-known console's: the SQL editor, the inherited
 * roles, then each source with the schemas of its tracked tables and functions, and those, which
 * a search field narrows down (by a part of their names).
 */
import { useState } from 'react';
import { Link, pathOf, usePath } from '../../app/router';
import { useMetadata, type QualifiedTable, type Source } from '../../api/metadata';
import { TextField } from '../../ui/forms';

interface SchemaItems {
  schema: string;
  tables: string[];
  functions: string[];
}

/** The source's tracked tables and functions whose names contain `search`, by schema. */
function bySchema(source: Source, search: string): SchemaItems[] {
  const groups = new Map<string, SchemaItems>();
  const group = (schema: string) => groups.get(schema) ?? groups.set(schema, { schema, tables: [], functions: [] }).get(schema)!;
  const matches = (t: QualifiedTable) => t.name.toLowerCase().includes(search.trim().toLowerCase());
  for (const t of source.tables) if (matches(t.table)) group(t.table.schema).tables.push(t.table.name);
  for (const f of source.functions ?? []) if (matches(f.function)) group(f.function.schema).functions.push(f.function.name);
  return [...groups.values()].sort((a, b) => a.schema.localeCompare(b.schema));
}

export function SideNav() {
  const { metadata } = useMetadata();
  const path = usePath();
  const current = (to: string) => (path === to || path.startsWith(`${to}/`) ? 'page' : undefined);
  const exact = (to: string) => (path === to ? 'page' : undefined);
  const [search, setSearch] = useState('');
  return (
    <nav className="side-nav" aria-label="Data">
      <TextField label="Search tables" type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
      <ul>
        <li>
          <Link to="/data/sql" aria-current={exact('/data/sql')}>
            SQL
          </Link>
        </li>
        <li>
          <Link to="/data/inherited-roles" aria-current={exact('/data/inherited-roles')}>
            Inherited roles
          </Link>
        </li>
        <li>
          <Link to="/data" aria-current={exact('/data')}>
            Sources
          </Link>
          <ul>
            {metadata?.sources.map((s) => (
              <li key={s.name}>
                <Link to={pathOf('data', s.name)} aria-current={exact(pathOf('data', s.name))}>
                  {s.name}
                </Link>
                <ul>
                  {bySchema(s, search).map(({ schema, tables, functions }) => (
                    <li key={schema}>
                      <Link to={pathOf('data', s.name, 'schema', schema)} aria-current={exact(pathOf('data', s.name, 'schema', schema))}>
                        {schema}
                      </Link>
                      <ul>
                        {tables.map((name) => {
                          const base = pathOf('data', s.name, 'schema', schema, 'tables', name);
                          return (
                            <li key={`table ${name}`}>
                              <Link to={`${base}/browse`} aria-current={current(base)}>
                                {name}
                              </Link>
                            </li>
                          );
                        })}
                        {functions.map((name) => {
                          const to = pathOf('data', s.name, 'schema', schema, 'functions', name);
                          return (
                            <li key={`function ${name}`} className="function">
                              <span aria-hidden="true">ƒ </span>
                              <Link to={to} aria-current={exact(to)}>
                                {name}
                              </Link>
                            </li>
                          );
                        })}
                      </ul>
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </li>
      </ul>
    </nav>
  );
}
