/**
 * The RESTified endpoints (`rest_endpoints` of the metadata): each with its URL, methods and
 * query, a page to try it, and delete (`drop_rest_endpoint`; the query the console stored for
 * it in `allowed-queries` goes too, as the well-known console drops it, unless another endpoint
 * serves it).
 */
import { metadata } from '../../../api/client';
import { useMetadata } from '../../../api/metadata';
import { Link, pathOf } from '../../../app/router';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { ErrorNote } from '../../../ui/ErrorNote';
import { Page } from '../../../ui/forms';
import { useAction } from '../../../ui/useAction';
import { CreateEndpointForm } from './CreateEndpointForm';
import { ENDPOINTS_COLLECTION, type Endpoint } from './endpoints';

export function RestEndpointsPage() {
  const { metadata: m, refresh } = useMetadata();
  const endpoints = m?.rest_endpoints ?? [];
  const dropping = useAction(async (e: Endpoint) => {
    const { collection_name, query_name } = e.definition.query;
    const shared = endpoints.some((o) => o.name !== e.name && o.definition.query.collection_name === collection_name && o.definition.query.query_name === query_name);
    const dropQuery = collection_name === ENDPOINTS_COLLECTION && !shared ? [{ type: 'drop_query_from_collection', args: { collection_name, query_name } }] : [];
    await metadata('bulk', [{ type: 'drop_rest_endpoint', args: { name: e.name } }, ...dropQuery]);
    await refresh();
  });
  return (
    <Page title="REST endpoints">
      <ErrorNote error={dropping.error} />
      {m && endpoints.length === 0 && <p>No REST endpoints.</p>}
      {endpoints.length > 0 && (
        <table aria-label="REST endpoints">
          <thead>
            <tr>
              <th>Name</th>
              <th>URL</th>
              <th>Methods</th>
              <th>Query</th>
              <th>Actions</th>
            </tr>
          </thead>
          <tbody>
            {endpoints.map((e) => (
              <tr key={e.name}>
                <td>
                  {e.name}
                  {e.comment && <div>{e.comment}</div>}
                </td>
                <td>
                  <code>/api/rest/{e.url}</code>
                </td>
                <td>{e.methods.join(', ')}</td>
                <td>
                  {e.definition.query.collection_name} / {e.definition.query.query_name}
                </td>
                <td className="row">
                  <Link to={pathOf('settings', 'rest-endpoints', e.name)}>Try it</Link>
                  <ConfirmButton label="Delete" question={`Delete ${e.name}?`} busy={dropping.busy} onConfirm={() => dropping.run(e)} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <CreateEndpointForm />
    </Page>
  );
}
