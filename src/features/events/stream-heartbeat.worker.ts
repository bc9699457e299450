// The heartbeat of GET /api/events on every instance: keeps its streams open, and ends those of revoked keys.
import type { Worker } from '../../core/workers/worker.js';
import type { EventStreamService } from './stream.service.js';

export function eventStreamHeartbeatWorker({
  eventStream,
  heartbeatMs,
}: {
  eventStream: Pick<EventStreamService, 'heartbeat'>;
  heartbeatMs: number;
}): Worker {
  return {
    name: 'event-stream-heartbeat',
    runs: 'everywhere',
    intervalMs: heartbeatMs,
    startDelayMs: heartbeatMs,
    run: () => eventStream.heartbeat(),
  };
}
