/** The Settings section's side navigation, grouped as the well-known console groups its pages. */
import { Link, pathOf } from '../../app/router';

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
  return (
    <nav className="side-nav" aria-label="Settings">
      {GROUPS.map((g) => (
        <div key={g.title}>
          <strong>{g.title}</strong>
          <ul>
            {g.pages.map((p) => (
              <li key={p.path}>
                <Link to={pathOf('settings', p.path)} aria-current={p.path === current ? 'page' : undefined}>
                  {p.title}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}
