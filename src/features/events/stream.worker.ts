// The tail of GET /api/events on every instance: woken by commits that wrote events, else every 250 ms.
import type { Worker } from '../../core/workers/worker.js';
import type { EventStreamService } from './stream.service.js';

export function eventStreamWorker({ eventStream }: { eventStream: Pick<EventStreamService, 'tail'> }): Worker {
  return { name: 'event-stream', runs: 'everywhere', intervalMs: 250, run: () => eventStream.tail() };
}
