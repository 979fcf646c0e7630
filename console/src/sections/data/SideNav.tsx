/**
 * The Data section's side navigation, as the well-known console's: the SQL editor, the inherited
 * roles, then each source with the schemas of its tracked tables and those tables, which a search
 * field narrows down (by a part of their names).
 */
import { useState } from 'react';
import { Link, pathOf, usePath } from '../../app/router';
import { useMetadata, type TableEntry } from '../../api/metadata';
import { TextField } from '../../ui/forms';

function bySchema(tables: TableEntry[]): [string, TableEntry[]][] {
  const groups = new Map<string, TableEntry[]>();
  for (const t of tables) groups.set(t.table.schema, [...(groups.get(t.table.schema) ?? []), t]);
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
}

export function SideNav() {
  const { metadata } = useMetadata();
  const path = usePath();
  const current = (to: string) => (path === to || path.startsWith(`${to}/`) ? 'page' : undefined);
  const exact = (to: string) => (path === to ? 'page' : undefined);
  const [search, setSearch] = useState('');
  const matching = (tables: TableEntry[]) => tables.filter((t) => t.table.name.toLowerCase().includes(search.trim().toLowerCase()));
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
                  {bySchema(matching(s.tables)).map(([schema, tables]) => (
                    <li key={schema}>
                      <Link to={pathOf('data', s.name, 'schema', schema)} aria-current={exact(pathOf('data', s.name, 'schema', schema))}>
                        {schema}
                      </Link>
                      <ul>
                        {tables.map((t) => {
                          const base = pathOf('data', s.name, 'schema', schema, 'tables', t.table.name);
                          return (
                            <li key={t.table.name}>
                              <Link to={`${base}/browse`} aria-current={current(base)}>
                                {t.table.name}
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
