import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { describeStartupError, startServices } from './runtime.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const services = await startServices(config);
  const app = await buildApp(services);

  const flush = setInterval(() => {
    services.keys.flushLastUsed().catch((err) => app.log.warn({ err }, 'could not record API key use'));
  }, 30_000);
  flush.unref();

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    clearInterval(flush);
    // Stop accepting, let in-flight requests finish, then release the database.
    await app.close();
    await services.keys.flushLastUsed().catch(() => {});
    await services.db.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ host: config.host, port: config.port });
}

main().catch((err: unknown) => {
  const message = err instanceof ConfigError ? err.message : `sector: ${describeStartupError(err)}`;
  process.stderr.write(`${message}\n`);
  process.exit(1);
});
