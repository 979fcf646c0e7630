/**
 * A REST endpoint made from a query, as the well-known console makes it: the query goes into
 * the `allowed-queries` collection (created when missing) under the endpoint's name, then
 * `create_rest_endpoint` points at it; both in one `bulk`, so a refused endpoint leaves no query.
 */
import { useState, type FormEvent } from 'react';
import { metadata } from '../../../api/client';
import { useMetadata } from '../../../api/metadata';
import { ErrorNote } from '../../../ui/ErrorNote';
import { Checkbox, TextArea, TextField } from '../../../ui/forms';
import { useAction } from '../../../ui/useAction';
import { checkQuery } from '../collections/parseQuery';
import { ENDPOINTS_COLLECTION, METHODS } from './endpoints';

export function CreateEndpointForm() {
  const { metadata: m, refresh } = useMetadata();
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [methods, setMethods] = useState<string[]>(['GET']);
  const [query, setQuery] = useState('');
  const [comment, setComment] = useState('');
  const creating = useAction(async () => {
    if (methods.length === 0) throw new Error('Choose at least one method.');
    checkQuery(query);
    const hasCollection = (m?.query_collections ?? []).some((c) => c.name === ENDPOINTS_COLLECTION);
    const storeQuery = hasCollection
      ? { type: 'add_query_to_collection', args: { collection_name: ENDPOINTS_COLLECTION, query_name: name, query } }
      : { type: 'create_query_collection', args: { name: ENDPOINTS_COLLECTION, definition: { queries: [{ name, query }] } } };
    const endpoint = { name, url, methods, definition: { query: { collection_name: ENDPOINTS_COLLECTION, query_name: name } }, ...(comment ? { comment } : {}) };
    await metadata('bulk', [storeQuery, { type: 'create_rest_endpoint', args: endpoint }]);
    await refresh();
    setName('');
    setUrl('');
    setQuery('');
    setComment('');
  });
  const toggle = (method: string, on: boolean) => setMethods((ms) => (on ? METHODS.filter((x) => x === method || ms.includes(x)) : ms.filter((x) => x !== method)));
  const submit = (e: FormEvent) => (e.preventDefault(), void creating.run());
  return (
    <form onSubmit={submit} aria-label="Create a REST endpoint">
      <h2>Create a REST endpoint</h2>
      <TextField label="Endpoint name" value={name} required onChange={(e) => setName(e.target.value)} />
      <TextField label="URL template (under /api/rest/, :name for a variable)" placeholder="users/:id" value={url} required onChange={(e) => setUrl(e.target.value)} />
      <fieldset className="row">
        <legend>Methods</legend>
        {METHODS.map((method) => (
          <Checkbox key={method} label={method} checked={methods.includes(method)} onChange={(e) => toggle(method, e.target.checked)} />
        ))}
      </fieldset>
      <TextArea label="GraphQL query of the endpoint" value={query} required onChange={(e) => setQuery(e.target.value)} />
      <TextField label="Comment (optional)" value={comment} onChange={(e) => setComment(e.target.value)} />
      <button type="submit" disabled={creating.busy}>
        Create endpoint
      </button>
      <ErrorNote error={creating.error} />
    </form>
  );
}
