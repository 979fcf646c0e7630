/**
 * The Remote Schemas section's routes, beside a list of the remote schemas:
 * - `/remote-schemas`: the list;
 * - `/remote-schemas/add`: a new one (`AddRemoteSchemaPage`);
 * - `/remote-schemas/<name>/<details|types|permissions>`: one remote schema (`RemoteSchemaPage`).
 */
import type { SectionPage } from '../../app/sections';
import { useMetadata } from '../../api/metadata';
import { Page } from '../../ui/forms';
import { NamedListNav } from '../../ui/NamedListNav';
import { AddRemoteSchemaPage } from './AddRemoteSchemaPage';
import { RemoteSchemaPage } from './RemoteSchemaPage';

const RemoteSchemasSection: SectionPage = ({ rest }) => {
  const [name, tab] = rest;
  const { metadata } = useMetadata();
  const list = metadata?.remote_schemas ?? [];
  return (
    <>
      <NamedListNav label="Remote schemas" section="remote-schemas" add="Add remote schema" names={list.map((r) => r.name)} tab="details" current={name} />
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
