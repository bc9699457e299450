// Votes close at their time by themselves (contract §23): once across instances (the lease), every
// 30 seconds; each vote is closed in one transaction that publishes vote.closed and marks it closed.
import type { Worker } from '../../core/workers/worker.js';
import type { VotesService } from './votes.service.js';

export function votesClosingWorker({ votes }: { votes: Pick<VotesService, 'closeDue'> }): Worker {
  return {
    name: 'votes-closing',
    runs: 'once',
    intervalMs: 30_000,
    leaseMs: 120_000,
    run: async (ctx) => {
      const closed = await votes.closeDue();
      if (closed > 0) ctx.log.info({ closed }, 'closed votes');
    },
  };
}
