/**
 * The allow-list: the collections on it with their scope (`add_collection_to_allowlist`,
 * `update_scope_of_collection_in_allowlist`, `drop_collection_from_allowlist`), and whether the
 * engine enforces it (`/v1alpha1/config`'s `is_allow_list_enabled`).
 */
import { useState, type FormEvent } from 'react';
import { get } from '../../../api/client';
import { useMetadata, type Metadata } from '../../../api/metadata';
import { Link } from '../../../app/router';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { ErrorNote } from '../../../ui/ErrorNote';
import { Page, Select } from '../../../ui/forms';
import { useMetadataChange } from '../../../ui/useMetadataChange';
import { useLoad } from '../../../ui/useLoad';
import { describeScope, inputOf, ScopeFields, scopeOf, type ScopeInput } from './ScopeFields';

type Entry = NonNullable<Metadata['allowlist']>[number];

function EntryRow({ entry }: { entry: Entry }) {
  const [scope, setScope] = useState<ScopeInput>(() => inputOf(entry.scope));
  const change = useMetadataChange();
  return (
    <tr>
      <td>{entry.collection}</td>
      <td>{describeScope(entry.scope)}</td>
      <td>
        <ScopeFields of={entry.collection} value={scope} onChange={setScope} />
        <div className="row">
          <button type="button" className="secondary" disabled={change.busy} onClick={() => void change.run('update_scope_of_collection_in_allowlist', { collection: entry.collection, scope: scopeOf(scope) })}>
            Update scope
          </button>
          <ConfirmButton label="Remove from allow-list" question={`Remove ${entry.collection}?`} busy={change.busy} onConfirm={() => change.run('drop_collection_from_allowlist', { collection: entry.collection })} />
        </div>
        <ErrorNote error={change.error} />
      </td>
    </tr>
  );
}

function AddForm({ candidates }: { candidates: string[] }) {
  const [collection, setCollection] = useState('');
  const [scope, setScope] = useState<ScopeInput>({ global: true, roles: '' });
  const change = useMetadataChange();
  const chosen = candidates.includes(collection) ? collection : (candidates[0] ?? '');
  const submit = (e: FormEvent) => (e.preventDefault(), void change.run('add_collection_to_allowlist', { collection: chosen, scope: scopeOf(scope) }));
  if (candidates.length === 0)
    return (
      <p>
        Every collection is on the allow-list. Create one in <Link to="/settings/query-collections">Query collections</Link>.
      </p>
    );
  return (
    <form onSubmit={submit} aria-label="Add a collection to the allow-list">
      <h2>Add a collection</h2>
      <Select label="Collection" value={chosen} options={candidates} onChange={(e) => setCollection(e.target.value)} />
      <ScopeFields of="the new entry" value={scope} onChange={setScope} />
      <button type="submit" disabled={change.busy}>
        Add to allow-list
      </button>
      <ErrorNote error={change.error} />
    </form>
  );
}

export function AllowListPage() {
  const { metadata: m } = useMetadata();
  const config = useLoad(() => get<{ is_allow_list_enabled?: boolean }>('/v1alpha1/config'), []);
  const entries = m?.allowlist ?? [];
  const listed = new Set(entries.map((e) => e.collection));
  const candidates = (m?.query_collections ?? []).map((c) => c.name).filter((n) => !listed.has(n));
  return (
    <Page title="Allow-list">
      {config.data?.is_allow_list_enabled === false && (
        <p className="notice">The engine does not enforce the allow-list: it runs without SERVICE_GRAPHQL_ENABLE_ALLOWLIST. Requests of the admin role are never checked.</p>
      )}
      {config.data?.is_allow_list_enabled === true && <p className="notice">The engine enforces the allow-list: a role's request runs only if its query is in a collection on the list for that role.</p>}
      {m && entries.length === 0 && <p>No collection is on the allow-list.</p>}
      {entries.length > 0 && (
        <table aria-label="Allow-list">
          <thead>
            <tr>
              <th>Collection</th>
              <th>Scope</th>
              <th>Change</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              // Keyed by collection and scope: a scope changed elsewhere resets the row's fields.
              <EntryRow key={`${e.collection} ${describeScope(e.scope)}`} entry={e} />
            ))}
          </tbody>
        </table>
      )}
      <AddForm candidates={candidates} />
    </Page>
  );
}
