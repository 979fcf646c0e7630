/**
 * Query collections (`create_query_collection`, `drop_query_collection`, renamed by
 * `RenameCollection`), each with its queries
 * (`add_query_to_collection`, `drop_query_from_collection`).
 */
import { useState, type FormEvent } from 'react';
import { metadata } from '../../../api/client';
import { useMetadata, type Metadata } from '../../../api/metadata';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { ErrorNote } from '../../../ui/ErrorNote';
import { Page, TextArea, TextField } from '../../../ui/forms';
import { useAction } from '../../../ui/useAction';
import { useMetadataChange } from '../../../ui/useMetadataChange';
import { checkQuery } from './parseQuery';
import { RenameCollection } from './RenameCollection';

type Collection = NonNullable<Metadata['query_collections']>[number];

function CreateCollectionForm() {
  const { refresh } = useMetadata();
  const [name, setName] = useState('');
  const [comment, setComment] = useState('');
  const creating = useAction(async () => {
    await metadata('create_query_collection', { name, definition: { queries: [] }, ...(comment ? { comment } : {}) });
    await refresh();
    setName('');
    setComment('');
  });
  const submit = (e: FormEvent) => (e.preventDefault(), void creating.run());
  return (
    <form onSubmit={submit} aria-label="Create a collection">
      <h2>Create a collection</h2>
      <TextField label="Collection name" value={name} required onChange={(e) => setName(e.target.value)} />
      <TextField label="Comment (optional)" value={comment} onChange={(e) => setComment(e.target.value)} />
      <button type="submit" disabled={creating.busy}>
        Create collection
      </button>
      <ErrorNote error={creating.error} />
    </form>
  );
}

function AddQueryForm({ collection }: { collection: string }) {
  const { refresh } = useMetadata();
  const [name, setName] = useState('');
  const [text, setText] = useState('');
  const adding = useAction(async () => {
    checkQuery(text);
    await metadata('add_query_to_collection', { collection_name: collection, query_name: name, query: text });
    await refresh();
    setName('');
    setText('');
  });
  const submit = (e: FormEvent) => (e.preventDefault(), void adding.run());
  return (
    <form onSubmit={submit} aria-label={`Add a query to ${collection}`}>
      <TextField label="Query name" value={name} required onChange={(e) => setName(e.target.value)} />
      <TextArea label="GraphQL query" value={text} required onChange={(e) => setText(e.target.value)} />
      <button type="submit" disabled={adding.busy}>
        Add query
      </button>
      <ErrorNote error={adding.error} />
    </form>
  );
}

function CollectionCard({ collection }: { collection: Collection }) {
  const change = useMetadataChange();
  const queries = collection.definition.queries;
  return (
    <section className="collection-card" aria-label={`Collection ${collection.name}`}>
      <header className="row">
        <h2>{collection.name}</h2>
        <div className="row">
          <RenameCollection name={collection.name} />
          {/* cascade: a collection on the allow-list leaves it too, as the well-known console drops it. */}
          <ConfirmButton label="Drop collection" question={`Drop ${collection.name} (and its allow-list entry)?`} busy={change.busy} onConfirm={() => change.run('drop_query_collection', { collection: collection.name, cascade: true })} />
        </div>
      </header>
      {collection.comment && <p>{collection.comment}</p>}
      <ErrorNote error={change.error} />
      {queries.length === 0 ? (
        <p>No queries yet.</p>
      ) : (
        <table aria-label={`Queries of ${collection.name}`}>
          <thead>
            <tr>
              <th>Name</th>
              <th>Query</th>
              <th>Actions</th>
            </tr>
          </thead>
          <tbody>
            {queries.map((q) => (
              <tr key={q.name}>
                <td>{q.name}</td>
                <td>
                  <pre className="code">{q.query}</pre>
                </td>
                <td>
                  <ConfirmButton label="Drop query" question={`Drop ${q.name}?`} busy={change.busy} onConfirm={() => change.run('drop_query_from_collection', { collection_name: collection.name, query_name: q.name })} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <AddQueryForm collection={collection.name} />
    </section>
  );
}

export function QueryCollectionsPage() {
  const { metadata: m } = useMetadata();
  const collections = m?.query_collections ?? [];
  return (
    <Page title="Query collections">
      <CreateCollectionForm />
      {m && collections.length === 0 && <p>No query collections.</p>}
      {collections.map((c) => (
        <CollectionCard key={c.name} collection={c} />
      ))}
    </Page>
  );
}
