/** A section's side navigation of named things (actions, remote schemas): a link to add one, then a link to each, the open one marked. */
import { Link, pathOf } from '../app/router';

export function NamedListNav({ label, section, add, names, tab, current }: { label: string; section: string; add: string; names: string[]; tab: string; current: string | undefined }) {
  return (
    <nav className="side-nav" aria-label={label}>
      <Link to={pathOf(section, 'add')} className="button-link">
        {add}
      </Link>
      <ul>
        {names.map((name) => (
          <li key={name}>
            <Link to={pathOf(section, name, tab)} aria-current={name === current ? 'page' : undefined}>
              {name}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
