/** Entry of the metadata actor's worker thread. */
import { workerData } from 'node:worker_threads';
import { setLogLevel } from '../../log.js';
import type { MetadataActorEvent, MetadataActorRequest } from '../../protocol/messages.js';
import type { MetadataActorBoot } from './client.js';
import { publish, serveActor } from '../host.js';
import { MetadataService } from './service.js';
import { loadEveryBackend } from '../../backends/registry.js';
import type { PublishedSnapshot } from '../../protocol/snapshot.js';

const { config } = workerData as MetadataActorBoot;
setLogLevel(config.logLevel);
const announce =
  (type: 'snapshot' | 'staged') =>
  ({ update, ...snapshot }: PublishedSnapshot) =>
    publish<MetadataActorEvent>({ type, snapshot }, update);
const service = new MetadataService(config, announce('snapshot'), (staged) => (staged ? announce('staged')(staged) : publish<MetadataActorEvent>({ type: 'unstaged' })));

serveActor<MetadataActorRequest>({
  // The administration API serves every kind of source (`mssql_add_source` on a PostgreSQL-only metadata).
  boot: async () => {
    await loadEveryBackend();
    await service.boot();
  },
  shutdown: () => service.shutdown(),
  handle: async (req, body) => {
    switch (req.type) {
      case 'admin':
        return service.admin(req.endpoint, body ?? new Uint8Array(), req.session);
      case 'health':
        return service.health();
      case 'sources-health':
        return service.sourcesHealth();
      case 'pg-dump':
        return service.pgDump(body ?? new Uint8Array());
    }
  },
});
