/** Entry of the metadata actor's worker thread. */
import { workerData } from 'node:worker_threads';
import { setLogLevel } from '../../log.js';
import type { ActorBootData, MetadataActorEvent, MetadataActorRequest } from '../../protocol/messages.js';
import { publish, serveActor } from '../host.js';
import { MetadataService } from './service.js';

const { config } = workerData as ActorBootData;
setLogLevel(config.logLevel);
const service = new MetadataService(config, ({ update, ...snapshot }) => publish<MetadataActorEvent>({ type: 'snapshot', snapshot }, update));

serveActor<MetadataActorRequest>({
  boot: () => service.boot(),
  shutdown: () => service.shutdown(),
  handle: async (req, body) => {
    switch (req.type) {
      case 'admin':
        return service.admin(req.endpoint, body ?? new Uint8Array());
      case 'health':
        return service.health();
    }
  },
});
