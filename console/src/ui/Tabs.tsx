/** A page's tabs as links (each tab is a path, so it can be opened and shared). */
import { Link, pathOf } from '../app/router';

export function Tabs({ label, base, tabs, current }: { label: string; base: string[]; tabs: readonly { path: string; title: string }[]; current: string }) {
  return (
    <nav className="tabs" aria-label={label}>
      {tabs.map((t) => (
        <Link key={t.path} to={pathOf(...base, t.path)} aria-current={t.path === current ? 'page' : undefined}>
          {t.title}
        </Link>
      ))}
    </nav>
  );
}
