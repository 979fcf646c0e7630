/**
 * The metadata actor's resolution of whole documents (metadata/resolve.ts `resolveDocument`,
 * every stage), with what it keeps between runs: its resolution memo and its admin schemas.
 * One per actor, so that every unit of work and every state it adopts share what was resolved.
 */
import { AdminSchemas } from '../../compiler/collection-validation.js';
import { resolveDocument, type DocumentVerdict, type SourceCatalog } from '../../metadata/resolve.js';
import { ResolveMemo } from '../../metadata/resolve/memo.js';
import type { RemoteState } from '../../metadata/resolve/remote-schemas.js';
import type { Metadata } from '../../metadata/types.js';

export class DocumentResolver {
  readonly memo = new ResolveMemo();
  private readonly admin = new AdminSchemas(this.memo);

  /** What is inconsistent in `m` over these catalogs and remote schemas, and which root fields clash (environment variables: the process's). */
  resolve(m: Metadata, catalogs: ReadonlyMap<string, SourceCatalog>, remotes: ReadonlyMap<string, RemoteState>): DocumentVerdict {
    return resolveDocument(m, { catalogs, remotes, env: process.env }, this.memo, this.admin);
  }
}
