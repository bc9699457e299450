// The scheduled jobs' metrics, labelled `job`: when each last succeeded on this instance, how long
// its runs take, and how often they failed.
import type { Registry } from 'prom-client';
import { promClient } from '../prom-client.js';
import type { WorkerObserver } from './workers.js';

const SECONDS = [0.005, 0.025, 0.1, 0.5, 1, 5, 30, 120, 600];

export function workerMetrics(registry: Registry, jobs: readonly string[]): WorkerObserver {
  const { Counter, Gauge, Histogram } = promClient();
  const registers = [registry];
  const lastSuccess = new Gauge({
    name: 'sector_job_last_success_timestamp_seconds',
    help: 'Unix time of the last successful run of a scheduled job on this instance',
    labelNames: ['job'],
    registers,
  });
  const duration = new Histogram({
    name: 'sector_job_duration_seconds',
    help: 'Duration of scheduled job runs on this instance',
    labelNames: ['job'],
    buckets: SECONDS,
    registers,
  });
  const failures = new Counter({
    name: 'sector_job_failures_total',
    help: 'Failed runs of scheduled jobs on this instance',
    labelNames: ['job'],
    registers,
  });
  for (const job of jobs) failures.inc({ job }, 0);
  return {
    ran(job, ok, seconds, at) {
      duration.observe({ job }, seconds);
      if (ok) lastSuccess.set({ job }, Math.floor(at / 1000));
      else failures.inc({ job });
    },
  };
}
