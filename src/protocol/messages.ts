/** Every message an actor accepts or emits. */
import type { GraphQLErrorBody, Plan } from './plan.js';
import type { PublishedSnapshot } from './snapshot.js';

/** Which administration surface a request came in on (they differ in names and shapes). */
export type AdminEndpoint = 'v1/metadata' | 'v1/query' | 'v2/query';

export interface AdminRequest {
  type: 'admin';
  endpoint: AdminEndpoint;
  /** The raw request body; the actor parses it so the front thread never does. */
  body: Uint8Array;
}

export interface AdminResponse {
  status: number;
  /** JSON text. */
  body: string;
}

export interface HealthRequest {
  type: 'health';
}

export interface HealthResponse {
  ok: boolean;
  message: string;
}

export type MetadataActorRequest = AdminRequest | HealthRequest;

export interface MetadataActorReplies {
  admin: AdminResponse;
  health: HealthResponse;
}

/** A new snapshot; its update's bytes (`PublishedSnapshot.update`) travel as the event's attachment. */
export type MetadataActorEvent = { type: 'snapshot'; snapshot: Omit<PublishedSnapshot, 'update'> };

/** What every worker gets at start. */
export interface ActorBootData {
  config: import('../config.js').Config;
}

/** The compiler pool's task (msgpack-encoded across the thread boundary). */
/** The snapshot updates from the last whole one to the current one (`PublishedSnapshot.update`, in shared memory). */
export interface SnapshotChain {
  generations: number[];
  updates: SharedArrayBuffer[];
}

export interface CompileTask {
  /** The snapshot generation the plan is for, and how to get there. */
  generation: number;
  chain: SnapshotChain;
  role: string;
  /** The request may use `backend_only` mutation permissions. */
  backendOnly: boolean;
  query: string;
  operationName: string | null;
  variables: Record<string, unknown>;
}

/** The compiler pool's answer (msgpack-encoded). */
export type CompileAnswer = { ok: true; plan: Plan } | { ok: false; errors: GraphQLErrorBody[] };

/** Settings every compiler thread starts with (piscina `workerData`). */
export interface CompilerOptions {
  stringifyNumericTypes: boolean;
}
