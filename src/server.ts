import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { describeStartupError, runShutdownSteps, startServices } from './runtime.js';
import type { AppServices } from './services/index.js';
import { builtInJobs, JobRunner, jobMetrics, type ScheduledJob } from './services/jobs/index.js';
import { networkJobs } from './services/jobs/network-jobs.js';
import { webhooksDisabledMetric } from './services/outbox-metrics.js';
import { WebhookDispatcher } from './services/webhooks/dispatcher.js';

/**
 * Scheduled jobs beyond the server's own (src/services/jobs/built-in.ts): the roster sync, the data
 * feed poll and the daily activity recompute, run by the same runner.
 */
function extraJobs(services: AppServices): ScheduledJob[] {
  return networkJobs(services);
}

async function main(): Promise<void> {
  const config = loadConfig();
  const services = await startServices(config);
  const app = await buildApp(services);

  const jobs = [...builtInJobs(services), ...extraJobs(services)];
  const runner = new JobRunner({
    db: services.db,
    jobs,
    log: app.log.child({ component: 'jobs' }),
    observer: services.metrics
      ? jobMetrics(
          services.metrics.registry,
          jobs.map((job) => job.name),
        )
      : undefined,
  });
  // Webhook deliveries: one dispatcher per server process (never in CLI commands), woken by local
  // commits and polling for those of other processes.
  const countDisabled = services.metrics ? webhooksDisabledMetric(services.metrics.registry) : undefined;
  const dispatcher = new WebhookDispatcher(
    services.db,
    {
      timeoutMs: config.webhookTimeoutMs,
      retryBaseMs: config.webhookRetryBaseMs,
      maxAttempts: config.webhookMaxAttempts,
      disableAfterMs: config.webhookDisableAfterMs,
      ...(countDisabled ? { onDisabled: countDisabled } : {}),
      http: services.http,
    },
    services.clock,
    app.log,
  );
  services.outbox.onCommitted(() => dispatcher.committed());

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Stop accepting, let in-flight requests finish (their key use is then counted), write the
    // last batch of key use, then release the database.
    const failure = await runShutdownSteps(
      [
        ['finish in-flight requests', () => app.close()],
        ['stop webhook deliveries', () => dispatcher.stop()],
        ['stop pushing to the network', async () => services.networkPusher?.stop()],
        ['record API key use', () => runner.stop()],
        ['end requests to other services', async () => services.http.close()],
        ['close the database', () => services.db.close()],
      ],
      (step) => app.log.debug({ step }, 'shutting down'),
    );
    if (failure !== null) app.log.error(failure);
    process.exit(failure === null ? 0 : 1);
  };
  // The last resort: whatever escapes the shutdown path is one line on stderr, never a stack trace.
  const onSignal = (signal: string) => () => {
    shutdown(signal).catch((err: unknown) => {
      process.stderr.write(`sector: shutdown failed: ${describeStartupError(err)}\n`);
      process.exit(1);
    });
  };
  process.once('SIGTERM', onSignal('SIGTERM'));
  process.once('SIGINT', onSignal('SIGINT'));

  await app.listen({ host: config.host, port: config.port });
  dispatcher.start();
  runner.start();
  // Pushes owed from before a restart are found at once; new ones as their changes commit.
  services.networkPusher?.start(app.log.child({ component: 'network' }));
}

main().catch((err: unknown) => {
  const message = err instanceof ConfigError ? err.message : `sector: ${describeStartupError(err)}`;
  process.stderr.write(`${message}\n`);
  process.exit(1);
});
