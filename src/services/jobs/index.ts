export { builtInJobs } from './built-in.js';
export { jobMetrics } from './metrics.js';
export { JobRunner, ReportedJobFailure, type JobObserver } from './runner.js';
export { systemTimers, type Timers } from './timers.js';
export type { JobContext, JobLogger, ScheduledJob } from './types.js';
