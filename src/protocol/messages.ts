/** Every message an actor accepts or emits. */
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
