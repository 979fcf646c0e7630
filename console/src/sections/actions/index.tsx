/**
 * The Actions section's routes, beside a list of the actions:
 * - `/actions`: the list;
 * - `/actions/add`: a new one (`AddActionPage`);
 * - `/actions/<name>/<modify|permissions>`: one action (`ActionPage`).
 */
import type { SectionPage } from '../../app/sections';
import { useMetadata } from '../../api/metadata';
import { Page } from '../../ui/forms';
import { NamedListNav } from '../../ui/NamedListNav';
import { ActionPage } from './ActionPage';
import { AddActionPage } from './AddActionPage';

const ActionsSection: SectionPage = ({ rest }) => {
  const [name, tab] = rest;
  const { metadata } = useMetadata();
  const list = metadata?.actions ?? [];
  return (
    <>
      <NamedListNav label="Actions" section="actions" add="Create action" names={list.map((a) => a.name)} tab="modify" current={name} />
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
