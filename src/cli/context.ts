import { loadConfig } from '../config.js';
import { startServices } from '../app/runtime.js';
import type { AppServices } from '../app/services.js';

/** An error meant for the operator: printed as one line, exit status 1. */
export class CliError extends Error {}

/** Runs a command with the configured database, migrated, and closes it afterwards. */
export async function withServices<T>(fn: (services: AppServices) => Promise<T>): Promise<T> {
  // A command serves no /metrics: nothing to count.
  const services = await startServices({ ...loadConfig(), metrics: false });
  try {
    return await fn(services);
  } finally {
    await services.close();
  }
}
