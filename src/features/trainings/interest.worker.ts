// Continued interest in a training request (contract §18), once across instances every 10 minutes.
import type { TrainingApplicationsService } from './applications.service.js';
import type { Worker } from '../../core/workers/worker.js';

export function trainingInterestWorker({ applications }: { applications: Pick<TrainingApplicationsService, 'checkInterest'> }): Worker {
  return {
    name: 'training-interest',
    runs: 'once',
    intervalMs: 10 * 60_000,
    leaseMs: 120_000,
    run: () => applications.checkInterest(),
  };
}
