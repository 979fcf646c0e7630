/**
 * The Actions section's routes, beside a list of the actions:
 * - `/actions`: the list;
 * - `/actions/add`: a new one (`AddActionPage`);
 * - `/actions/<name>/<modify|permissions>`: one action (`ActionPage`).
 */
import type { SectionPage } from '../../app/sections';
import { Link, pathOf } from '../../app/router';
import { useMetadata } from '../../api/metadata';
import { Page } from '../../ui/forms';
import { ActionPage } from './ActionPage';
import { AddActionPage } from './AddActionPage';

const ActionsSection: SectionPage = ({ rest }) => {
  const [name, tab] = rest;
  const { metadata } = useMetadata();
  const list = metadata?.actions ?? [];
  return (
    <>
      <nav className="side-nav" aria-label="Actions">
        <Link to="/actions/add" className="button-link">
          Create action
        </Link>
        <ul>
          {list.map((a) => (
            <li key={a.name}>
              <Link to={pathOf('actions', a.name, 'modify')} aria-current={a.name === name ? 'page' : undefined}>
                {a.name}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {name === 'add' ? (
        <AddActionPage />
      ) : name ? (
        <ActionPage name={name} tab={tab ?? 'modify'} />
      ) : (
        <Page title="Actions">
          <p>{list.length === 0 ? 'No actions yet: create one to extend the API with your own business logic behind a webhook.' : `${list.length} action${list.length === 1 ? '' : 's'}: choose one on the left.`}</p>
        </Page>
      )}
    </>
  );
};
export default ActionsSection;
