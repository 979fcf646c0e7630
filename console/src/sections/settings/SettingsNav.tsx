/**
 * The Settings section's side navigation, grouped as the well-known console groups its pages;
 * the inconsistent objects are counted beside their page's link, as the well-known console
 * flags them.
 */
import { metadata } from '../../api/client';
import { useMetadata } from '../../api/metadata';
import { Link, pathOf } from '../../app/router';
import { useLoad } from '../../ui/useLoad';

const GROUPS = [
  {
    title: 'Metadata',
    pages: [
      { path: 'metadata-actions', title: 'Metadata actions' },
      { path: 'metadata-status', title: 'Inconsistent metadata' },
    ],
  },
  {
    title: 'API',
    pages: [
      { path: 'query-collections', title: 'Query collections' },
      { path: 'allow-list', title: 'Allow-list' },
      { path: 'rest-endpoints', title: 'REST endpoints' },
    ],
  },
  {
    title: 'Security',
    pages: [
      { path: 'tls-allowlist', title: 'TLS allow-list' },
      { path: 'api-limits', title: 'API limits' },
      { path: 'observability', title: 'Observability' },
    ],
  },
  { title: 'Engine', pages: [{ path: 'about', title: 'About' }] },
];

export function SettingsNav({ current }: { current: string }) {
  // Every refresh of the metadata (a reload leaves the resource version alone) reads them again.
  const { metadata: read } = useMetadata();
  const status = useLoad(() => metadata<{ inconsistent_objects: unknown[] }>('get_inconsistent_metadata', {}), [read]);
  const inconsistent = status.data?.inconsistent_objects.length ?? 0;
  return (
    <nav className="side-nav" aria-label="Settings">
      {GROUPS.map((g) => (
        <div key={g.title}>
          <h2>{g.title}</h2>
          <ul>
            {g.pages.map((p) => (
              <li key={p.path}>
                <Link to={pathOf('settings', p.path)} aria-current={p.path === current ? 'page' : undefined}>
                  {p.title}
                  {p.path === 'metadata-status' && inconsistent > 0 && <span className="inconsistent-count"> ({inconsistent})</span>}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}
