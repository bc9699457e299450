import { buildApp } from './app/app.js';
import { ConfigError, loadConfig } from './config.js';
import {
  checkDemoAddresses,
  checkDemoDatabase,
  checkDemoHost,
  demoDivision,
  DemoRefusal,
  demoConfig,
  prepareDemoDatabase,
} from './app/demo-mode.js';
import { describeStartupError, runShutdownSteps, startServices } from './app/runtime.js';

async function main(): Promise<void> {
  // `npm run demo`: only by this flag, never by a setting a real site could carry.
  const demo = process.argv.includes('--demo');
  const config = demo ? demoConfig(loadConfig()) : loadConfig();
  const data = demo ? await demoDivision(Date.now()) : null;
  if (data) {
    await checkDemoHost(config.host);
    await checkDemoDatabase(config.databaseUrl, data);
  }
  const services = await startServices(config);
  if (data) {
    try {
      const how = await prepareDemoDatabase(services, data);
      process.stderr.write(
        `${how === 'loaded' ? 'Loaded the demo division into' : 'Demo division kept in'} ${config.databaseUrl.slice(7)}.\n`,
      );
    } catch (err) {
      await services.close();
      throw err;
    }
  }
  const app = await buildApp(services);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Stop accepting, let in-flight requests finish (their key use is then counted), stop the
    // workers (the last batch of key use is written), then release the outbound connections and
    // the database.
    const failure = await runShutdownSteps(
      [
        ['finish in-flight requests', () => app.close()],
        ['record API key use', () => services.workers.stop()],
        ['close the database and outbound connections', () => services.close()],
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
  if (demo) {
    try {
      checkDemoAddresses(app.addresses());
    } catch (err) {
      await app.close();
      await services.close();
      throw err;
    }
    const first = app.addresses()[0];
    const where =
      typeof first === 'object'
        ? `http://${first.family === 'IPv6' ? `[${first.address}]` : first.address}:${first.port}`
        : config.publicUrl;
    process.stderr.write(`Demo: open ${where}/auth/login to sign in as a demo person (Ctrl-C stops it; nothing leaves this computer).\n`);
  }
  services.workers.start(app.log.child({ component: 'workers' }));
}

main().catch((err: unknown) => {
  const message =
    err instanceof ConfigError
      ? err.message
      : err instanceof DemoRefusal
        ? `sector: ${err.message}`
        : `sector: ${describeStartupError(err)}`;
  process.stderr.write(`${message}\n`);
  process.exit(1);
});
