// The outbox's events for clients: the event stream (GET /api/events) and the events' retention.
import type { ServiceDeps } from '../../app/deps.js';
import type { Feature } from '../../app/feature.js';
import type { ApiKeyService } from '../api-keys/index.js';
import eventsRoutes from './events.routes.js';
import { eventRetentionWorker } from './retention.worker.js';
import { EventStreamService } from './stream.service.js';
import { eventStreamHeartbeatWorker } from './stream-heartbeat.worker.js';
import { eventStreamWorker } from './stream.worker.js';

// What other features use of this one.
export type { NewEvent } from './events.repository.js';
export { lastEventSeq, networkCursor } from './predicates.js';

export type { EventType } from './domain.js';

function services(deps: ServiceDeps, { keys }: { keys: ApiKeyService }) {
  return {
    /** GET /api/events: one tail of the outbox per process for every connected client. */
    eventStream: new EventStreamService({
      ...deps,
      limits: { perKey: deps.config.eventsMaxStreamsPerKey, total: deps.config.eventsMaxStreams },
      validKeys: (ids) => keys.stillValid(ids),
    }),
  };
}

export const events: Feature<ReturnType<typeof services>, { keys: ApiKeyService }> = {
  services,
  routes: { api: [eventsRoutes] },
  workers: ({ config, writer }, { eventStream }) => [
    eventStreamWorker({ eventStream }),
    eventStreamHeartbeatWorker({ eventStream, heartbeatMs: config.eventStreamHeartbeatMs }),
    eventRetentionWorker({ config, writer }),
  ],
};
