/**
 * The Remote Schemas section's routes, beside a list of the remote schemas:
 * - `/remote-schemas`: the list;
 * - `/remote-schemas/add`: a new one (`AddRemoteSchemaPage`);
 * - `/remote-schemas/<name>/<details|types|permissions>`: one remote schema (`RemoteSchemaPage`).
 */
import type { SectionPage } from '../../app/sections';
import { Link, pathOf } from '../../app/router';
import { useMetadata } from '../../api/metadata';
import { Page } from '../../ui/forms';
import { AddRemoteSchemaPage } from './AddRemoteSchemaPage';
import { RemoteSchemaPage } from './RemoteSchemaPage';

const RemoteSchemasSection: SectionPage = ({ rest }) => {
  const [name, tab] = rest;
  const { metadata } = useMetadata();
  const list = metadata?.remote_schemas ?? [];
  return (
    <>
      <nav className="side-nav" aria-label="Remote schemas">
        <Link to="/remote-schemas/add" className="button-link">
          Add remote schema
        </Link>
        <ul>
          {list.map((r) => (
            <li key={r.name}>
              <Link to={pathOf('remote-schemas', r.name, 'details')} aria-current={r.name === name ? 'page' : undefined}>
                {r.name}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {name === 'add' ? (
        <AddRemoteSchemaPage />
      ) : name ? (
        <RemoteSchemaPage name={name} tab={tab ?? 'details'} />
      ) : (
        <Page title="Remote Schemas">
          <p>{list.length === 0 ? 'No remote schemas yet: add one to merge another GraphQL server into this API.' : `${list.length} remote schema${list.length === 1 ? '' : 's'}: choose one on the left.`}</p>
        </Page>
      )}
    </>
  );
};
export default RemoteSchemasSection;
