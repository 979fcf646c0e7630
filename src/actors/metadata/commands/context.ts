/**
 * What a metadata command may see and do. Commands are functions of the current
 * metadata and their arguments; the few that touch a database (run_sql, reload) do so
 * through this context, inside the request's unit of work.
 */
import type { IntrospectionQuery } from 'graphql';
import type { DatabaseCatalog } from '../../../catalog/types.js';
import type { Backend } from '../../../backends/backend.js';
import type { RunSqlResponse } from '../../../backends/faces/admin.js';
import type { AdminEndpoint } from '../../../protocol/messages.js';
import type { Json } from '../../../util/decode.js';
import type { ApiError } from '../../../errors/admin.js';
import type { BackendKind, InconsistentObject, Metadata } from '../../../metadata/types.js';
import type { ResolveMemo } from '../../../metadata/resolve/memo.js';
import type { ResolvedMetadata } from '../../../metadata/resolve/types.js';

export interface RunSqlOptions {
  source: string;
  sql: string;
  readOnly: boolean;
  /** Re-read the catalog afterwards and check the metadata against it. */
  checkConsistency: boolean;
  /** Whether metadata the SQL breaks may go (rather than fail the request). */
  cascade: boolean;
}

export interface CommandContext {
  readonly endpoint: AdminEndpoint;
  /** The caller's session variables (its `x-service-*` headers; `x-service-role` is admin unless a role runs data operations on `/v1/query`). */
  readonly session: Readonly<Record<string, string>>;
  /** The metadata as the unit of work has it now (after earlier commands of a bulk). */
  readonly metadata: Metadata;
  readonly resourceVersion: number;
  /** Catalog of a source as this unit of work sees it (uncommitted DDL included); undefined if unreachable. */
  introspection(source: string): DatabaseCatalog | undefined;
  /** What the actor's resolutions keep between runs: a command resolving a source's fields shares it (metadata/resolve/memo.ts). */
  readonly resolveMemo: ResolveMemo;
  /** `metadata` resolved over this unit of work's catalogs (permissions and inherited roles included), with `resolveMemo`. */
  resolved(): ResolvedMetadata;
  /** Why a source is unreachable, or undefined. */
  sourceError(source: string): string | undefined;
  inconsistencies(): InconsistentObject[];
  /** The backend of a source kind; undefined for kinds this engine accepts but cannot connect to. */
  backend(kind: BackendKind): Backend | undefined;
  runSql(opts: RunSqlOptions): Promise<RunSqlResponse>;
  /** Runs one parameterised statement in the source's transaction of this unit of work (the DML operations). */
  query(source: string, text: string, params: unknown[]): Promise<Record<string, unknown>[]>;
  /** Runs one parameterised statement on the metadata database, on its own (the scheduled events). */
  catalogQuery(text: string, params: unknown[]): Promise<Record<string, unknown>[]>;
  /** Re-introspects sources (all when `names` is true) and reconnects them. */
  reloadSources(names: string[] | true): Promise<void>;
  /** Whether remote schema permissions are enabled (`--enable-remote-schema-permissions`). */
  readonly remoteSchemaPermissions: boolean;
  /** A remote schema's introspection as this unit of work has it; undefined when it could not be had. */
  remoteIntrospection(name: string): IntrospectionQuery | undefined;
  /** Introspects remote schemas again (all when `names` is true). */
  reloadRemoteSchemas(names: string[] | true): Promise<void>;
  /** Removes every inconsistent object from `metadata` (the draft). */
  dropInconsistentObjects(): void;
}

export interface CommandResult {
  /** The new document, or null when nothing changes. */
  metadata: Metadata | null;
  response: Json;
  /** What the unit of work does with the inconsistencies the new document has (default `refuse-new`). */
  consistency?: Consistency;
  /** The error when the change is refused for its inconsistencies (default: the first one's reason). */
  inconsistencyError?: (objects: InconsistentObject[]) => ApiError;
  /** Sources whose database event triggers are installed again once the change is in effect (reload_metadata). */
  recreateEventTriggers?: string[] | true;
  /** Builds the response from the inconsistencies left after the change (when `response` depends on them). */
  reportInconsistencies?: ((list: InconsistentObject[]) => Json) | undefined;
}

/**
 * `refuse-new`: the change fails if it leaves inconsistencies the state in effect did not have
 * (most commands); `refuse-any`: if the new document has any (replace_metadata without
 * `allow_inconsistent_metadata`); `cascade`: what the change made inconsistent is removed, and
 * what that removal breaks in turn (drops and run_sql with `cascade`); `allow`: kept and reported
 * (reloads, replace_metadata with `allow_inconsistent_metadata`, run_sql without the check).
 */
export type Consistency = 'refuse-new' | 'refuse-any' | 'cascade' | 'allow';

export type Command = (ctx: CommandContext, args: unknown, path: string) => Promise<CommandResult> | CommandResult;

export const SUCCESS: Json = { message: 'success' };
