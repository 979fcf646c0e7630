/**
 * Automatic persisted queries, the protocol of Apollo clients (`extensions.persistedQuery:
 * {version: 1, sha256Hash}`): a request may carry only the hash of a document the engine has
 * seen; an unknown hash answers `PersistedQueryNotFound`, and the client sends the document
 * with its hash, which is checked and kept. Documents are kept by hash in a bounded cache, the
 * least recently used going first (`SERVICE_GRAPHQL_PERSISTED_QUERIES_CACHE_SIZE`). A document
 * is kept only once it compiled for the request's role (so only allowed documents are kept when
 * the allow-list is on), and a hash stands for its text only: each request is still checked
 * for its own role (the allow-list included) like the same text sent in full.
 */
import { createHash } from 'node:crypto';
import { RequestError } from '../errors/request.js';
import type { GraphQLRequest } from './request.js';

const HASH_PATH = '$.extensions.persistedQuery.sha256Hash';

type Resolved = GraphQLRequest & { query: string };

export const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

export class PersistedQueries {
  /** Hash -> document text; a Map keeps insertion order, so the first key is the least recently used. */
  private readonly documents = new Map<string, string>();

  constructor(private readonly size: number) {}

  /**
   * The request with its document: as sent (its hash checked), or the one its hash stands for.
   * Throws `PersistedQueryNotFound` for an unknown hash.
   */
  resolve(req: GraphQLRequest): Resolved {
    const hash = req.persistedQuery;
    if (req.query !== null) {
      if (hash !== undefined && sha256Hex(req.query) !== hash) throw new RequestError('provided sha does not match query', HASH_PATH, 'bad-request');
      return req as Resolved;
    }
    // readRequest leaves the query out only with a hash.
    if (hash === undefined) throw new RequestError('the key "query" was not present', '$.query', 'parse-failed');
    const query = this.documents.get(hash);
    // Apollo's links recognise the message (and the code); the client then sends the document.
    if (query === undefined) throw new RequestError('PersistedQueryNotFound', HASH_PATH, 'PERSISTED_QUERY_NOT_FOUND');
    this.touch(hash, query);
    return { ...req, query };
  }

  /** Keeps the document of a request that compiled (a no-op for requests without a hash). */
  keep(req: Resolved): void {
    if (req.persistedQuery !== undefined) this.touch(req.persistedQuery, req.query);
  }

  private touch(hash: string, query: string): void {
    this.documents.delete(hash);
    this.documents.set(hash, query);
    if (this.documents.size > this.size) this.documents.delete(this.documents.keys().next().value!);
  }
}
