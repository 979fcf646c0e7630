/** The metadata actor as the main thread starts and asks it; what its thread gets at start. */
import type { Config } from '../../config/config.js';
import type { MetadataActorEvent, MetadataActorReplies, MetadataActorRequest } from '../../protocol/messages.js';
import { Actor } from '../runtime.js';

/** The metadata actor's `workerData`: the engine's configuration. */
export interface MetadataActorBoot {
  config: Config;
}

export type MetadataActor = Actor<MetadataActorRequest, MetadataActorReplies, MetadataActorEvent>;

export function metadataActor(config: Config): MetadataActor {
  const boot: MetadataActorBoot = { config };
  return new Actor({ name: 'metadata', script: new URL('./worker.js', import.meta.url), workerData: boot, timeoutMs: config.actorTimeoutMs });
}
