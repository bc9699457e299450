// First, before any other module: see the module itself.
import './tick-queue-warm-up.js';
import './heap-growth.js';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { describeStartupError, recordKeyUse, runShutdownSteps, startServices } from './runtime.js';
import { startRetention } from './services/events/retention.js';
import { WebhookDispatcher } from './services/webhooks/dispatcher.js';
import { startAuditRetention } from './services/audit.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const services = await startServices(config);
  const app = await buildApp(services);

  const keyUse = recordKeyUse(services.keys, (err) => app.log.warn({ err }, 'could not record API key use'));
  // Webhook deliveries: one dispatcher per server process (never in CLI commands), woken by local
  // commits and polling for those of other processes.
  const dispatcher = new WebhookDispatcher(
    services.db,
    { timeoutMs: config.webhookTimeoutMs, retryBaseMs: config.webhookRetryBaseMs, maxAttempts: config.webhookMaxAttempts },
    services.clock,
    app.log,
  );
  services.outbox.onCommitted(() => dispatcher.committed());
  const retention = startRetention(services.db, config.eventRetentionDays, services.clock, (err) =>
    app.log.warn({ err }, 'could not prune old events'),
  );
  const auditRetention =
    config.auditRetentionDays === null
      ? null
      : startAuditRetention(
          services.db,
          config.auditRetentionDays,
          services.clock,
          (deleted) => app.log.info({ deleted, retentionDays: config.auditRetentionDays }, 'pruned old audit entries'),
          (err) => app.log.warn({ err }, 'could not prune the audit log'),
        );

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    retention.stop();
    auditRetention?.stop();
    // Stop accepting, let in-flight requests finish (their key use is then counted), write the
    // last batch of key use, then release the database.
    const failure = await runShutdownSteps([
      ['finish in-flight requests', () => app.close()],
      ['stop webhook deliveries', () => dispatcher.stop()],
      ['stop pushing to the network', async () => services.networkPusher?.stop()],
      ['record API key use', () => keyUse.stop()],
      ['close the database', () => services.db.close()],
    ]);
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
  // Pushes owed from before a restart are found at once; new ones as their changes commit.
  services.networkPusher?.start(app.log.child({ component: 'network' }));
}

main().catch((err: unknown) => {
  const message = err instanceof ConfigError ? err.message : `sector: ${describeStartupError(err)}`;
  process.stderr.write(`${message}\n`);
  process.exit(1);
});
